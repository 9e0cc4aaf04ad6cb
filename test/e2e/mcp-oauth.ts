import { createHash, randomBytes } from 'node:crypto';
import { api, type ApiResponse } from './api';
import type { RunningRde } from './harness';
import { signIn } from './sign-in';
import { newTeam } from './teams';

/** The redirect URI test clients register: loopback http, never actually contacted. */
export const REDIRECT_URI = 'http://127.0.0.1:9/callback';
export const OAUTH = '/api/v2/mcp/oauth';

/** A PKCE pair (RFC 7636, S256). */
export function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** Posts a form as a browser or an OAuth client does (no redirects followed). */
export async function postForm(
  rde: RunningRde,
  path: string,
  form: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<ApiResponse> {
  const response = await fetch(`${rde.baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(form).toString(),
    redirect: 'manual',
  });
  const text = await response.text();
  const isJson = response.headers.get('content-type')?.includes('json');
  return { status: response.status, headers: response.headers, body: isJson && text ? JSON.parse(text) : text, text };
}

export async function registerClient(rde: RunningRde, metadata: Record<string, unknown> = {}): Promise<string> {
  const response = await api(rde, 'POST', `${OAUTH}/register`, {
    key: null,
    body: { client_name: 'spec client', redirect_uris: [REDIRECT_URI], ...metadata },
  });
  if (response.status !== 201) throw new Error(`register answered ${response.status}: ${response.text}`);
  return response.body.client_id as string;
}

/** A fresh team whose owner is signed in in a browser: the owner's key, workspace and `rde_session`. */
export async function signedInOwner(rde: RunningRde) {
  const team = await newTeam(rde, 'oauth');
  const me = await api(rde, 'GET', '/api/v2/me', { key: team.owner });
  const { session } = await signIn(rde, me.body.user.email as string);
  return { ...team, session, cookie: `rde_session=${session}` };
}

/** The authorization request parameters of a client with a PKCE challenge. */
export function authorizationRequest(clientId: string, challenge: string, extra: Record<string, string> = {}) {
  return {
    response_type: 'code',
    client_id: clientId,
    redirect_uri: REDIRECT_URI,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    scope: 'mcp',
    state: 'state-123',
    ...extra,
  };
}

/** The query parameters of a redirect's Location. */
export function redirectParameters(response: ApiResponse): URLSearchParams {
  return new URL(response.headers.get('location')!).searchParams;
}

/**
 * Register → consent, approved through the browser session `cookie` (with any extra form fields,
 * e.g. `workspace_id`): the client, the code and its verifier.
 */
export async function approvedCode(
  rde: RunningRde,
  cookie: string,
  headers: Record<string, string> = {},
  extra: Record<string, string> = {},
) {
  const clientId = await registerClient(rde);
  const { verifier, challenge } = pkce();
  const form = { ...authorizationRequest(clientId, challenge), decision: 'approve', ...extra };
  const approved = await postForm(rde, `${OAUTH}/authorize`, form, { cookie, ...headers });
  return { clientId, verifier, code: redirectParameters(approved).get('code')! };
}

/** The token endpoint's answer to redeeming an approved code. */
export function redeemCode(rde: RunningRde, { clientId, code, verifier }: Awaited<ReturnType<typeof approvedCode>>) {
  return postForm(rde, `${OAUTH}/token`, {
    grant_type: 'authorization_code',
    code,
    redirect_uri: REDIRECT_URI,
    client_id: clientId,
    code_verifier: verifier,
  });
}

/** Register → consent → token: the client, the code, its verifier and the token endpoint's response. */
export async function approvedTokens(rde: RunningRde, cookie: string, headers: Record<string, string> = {}) {
  const approved = await approvedCode(rde, cookie, headers);
  return { ...approved, token: await redeemCode(rde, approved) };
}
