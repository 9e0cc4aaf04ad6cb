import { api, type ApiResponse } from './api';
import type { RunningRde } from './harness';
import { nthMailTo, signInSecrets } from './mail';

/** The `rde_session` cookie a response set: its value and attributes, as the browser sees them. */
export function sessionCookieOf(response: ApiResponse): { value: string; attributes: string[] } | undefined {
  const header = response.headers.getSetCookie().find((cookie) => cookie.startsWith('rde_session='));
  if (!header) return undefined;
  const [pair, ...attributes] = header.split(';').map((part) => part.trim());
  return { value: pair.slice('rde_session='.length), attributes: attributes.map((a) => a.toLowerCase()) };
}

/** Headers that present a session cookie, as the browser does on dashboard calls. */
export function withCookie(value: string, headers: Record<string, string> = {}) {
  return { key: null, headers: { ...headers, cookie: `rde_session=${value}` } };
}

let emails = 0;
/** A fresh address at a domain the test SMTP server accepts. */
export function freshEmail(who: string): string {
  return `${who}.${Date.now()}.${++emails}@example.com`;
}

/** Asks for a sign-in email and reads its link token and code from the real inbox. */
export async function requestSignIn(rde: RunningRde, email: string, extra: Record<string, string> = {}, nth = 1) {
  const sent = await api(rde, 'POST', '/api/v2/auth/magic-link', { key: null, body: { email, ...extra } });
  if (sent.status !== 200) throw new Error(`magic-link answered ${sent.status}: ${sent.text}`);
  return signInSecrets(await nthMailTo(email, nth));
}

/** Signs in through the emailed link; returns the session cookie's value and the response. */
export async function signIn(rde: RunningRde, email: string, extra: Record<string, string> = {}) {
  const { token } = await requestSignIn(rde, email, extra);
  const response = await api(rde, 'POST', '/api/v2/auth/magic-link/verify', { key: null, body: { token } });
  if (response.status !== 200) throw new Error(`verify answered ${response.status}: ${response.text}`);
  return { session: sessionCookieOf(response)!.value, response };
}
