import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { httpError, type RdeError } from '@rde/platform';

/** How long each credential lives (the spec leaves lifetimes to us: decision 0029). */
export const LIFETIMES = {
  codeMs: 5 * 60_000,
  accessMs: 60 * 60_000,
  refreshMs: 30 * 24 * 60 * 60_000,
} as const;

/** The one scope: acting on the chosen workspace through the MCP tools. */
export const SCOPE = 'mcp';

/** Prefixes say what a secret is (and let the gateway tell an OAuth access token from an API key). */
export const SECRET_PREFIX = { code: 'rde_mcp_code_', access: 'rde_mcp_at_', refresh: 'rde_mcp_rt_' } as const;

/** A fresh 256-bit secret with its kind's prefix. */
export function mintSecret(kind: keyof typeof SECRET_PREFIX): string {
  return `${SECRET_PREFIX[kind]}${randomBytes(32).toString('base64url')}`;
}

/** What the store keeps instead of a secret: its SHA-256 (a 256-bit random secret needs no slow hash). */
export function hashOf(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

/** RFC 7636 §4.1: 43 to 128 unreserved characters. */
const VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;
/** An S256 challenge is the base64url of a SHA-256: 43 characters. */
export const S256_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

/** RFC 7636 §4.6 for S256, compared in constant time. */
export function verifierMatches(verifier: string, challenge: string): boolean {
  if (!VERIFIER.test(verifier)) return false;
  const computed = Buffer.from(createHash('sha256').update(verifier).digest('base64url'));
  const expected = Buffer.from(challenge);
  return computed.length === expected.length && timingSafeEqual(computed, expected);
}

/** An RFC 6749 §5.2 error body, with the spec's `detail` beside it. */
export function oauthError(status: number, error: string, description: string): RdeError {
  return httpError(status, { detail: description, error, error_description: description });
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Why a redirect URI is refused, or undefined when it is fine: absolute, https (or http on a
 * loopback host, RFC 8252 §7.3), no fragment (RFC 6749 §3.1.2), no credentials.
 */
export function redirectUriProblem(value: string): string | undefined {
  if (value.includes('#')) return 'must not contain a fragment';
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'must be an absolute URL';
  }
  if (url.username || url.password) return 'must not carry credentials';
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname)) return undefined;
  return 'must use https, or http on a loopback host';
}

/**
 * Whether a requested redirect URI is one the client registered: exact, except that a loopback
 * http URI may name any port (RFC 8252 §7.3: native apps get an ephemeral port).
 */
export function redirectUriRegistered(requested: string, registered: readonly string[]): boolean {
  if (registered.includes(requested)) return true;
  const portless = loopbackWithoutPort(requested);
  return portless !== undefined && registered.some((uri) => loopbackWithoutPort(uri) === portless);
}

function loopbackWithoutPort(value: string): string | undefined {
  try {
    const url = new URL(value);
    if (url.protocol !== 'http:' || !LOOPBACK_HOSTS.has(url.hostname)) return undefined;
    url.port = '';
    return url.href;
  } catch {
    return undefined;
  }
}

/** The client's redirect URI with the response parameters added to its query (RFC 6749 §4.1.2, RFC 9207). */
export function redirectWith(redirectUri: string, parameters: Record<string, string>): string {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries(parameters)) if (value) url.searchParams.set(name, value);
  return url.href;
}
