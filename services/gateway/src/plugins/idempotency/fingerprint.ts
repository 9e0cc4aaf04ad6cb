import { createHash } from 'node:crypto';
import stringify from 'safe-stable-stringify';

/** The request header (IETF draft httpapi-idempotency-key-header; Stripe's name). */
export const IDEMPOTENCY_HEADER = 'idempotency-key';
/** Set on a replayed response. */
export const REPLAYED_HEADER = 'idempotent-replayed';
/** Printable ASCII (space to tilde); the length (1–255) is checked apart, so each mistake is named once. */
const KEY_PATTERN = '^[\\x20-\\x7E]*$';
const KEY_CHARACTERS = new RegExp(KEY_PATTERN);

/** Whether a key read from elsewhere than the header (which the route schema checks) is well formed. */
export function isIdempotencyKey(key: string): boolean {
  return key.length >= 1 && key.length <= 255 && KEY_CHARACTERS.test(key);
}

/** The header's schema: Fastify validates it (a bad key is the usual 422) and /openapi.json documents it. */
export const idempotencyKeyHeader = {
  type: 'string',
  minLength: 1,
  maxLength: 255,
  pattern: KEY_PATTERN,
  description:
    'Makes a retry safe: the same key with the same request within the retention window (24 h) answers the ' +
    'first response again (with `Idempotent-Replayed: true`) and spends nothing; the same key with another ' +
    'request is 422 `idempotency_key_reused`; while the first is still running, 409 `idempotency_key_in_use` ' +
    'with `Retry-After`. Scoped to the workspace. 1–255 printable ASCII characters.',
} as const;

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/**
 * What makes two requests the same request: method, route, the path and query as sent, and the
 * body in canonical form (keys sorted), so a retry that reorders keys still matches.
 */
export function fingerprintOf(method: string, route: string, url: string, body: unknown): string {
  return sha256(`${method}\n${route}\n${url}\n${stringify(body ?? null)}`);
}

/** Where a workspace's key is kept: the key is hashed, so any printable text makes a safe store key. */
export function storageKeyOf(workspaceId: string, key: string): string {
  return `idem:${workspaceId}:${sha256(key)}`;
}

/**
 * The run id a keyed paid call is given: the same workspace, key and request always derive the same
 * id, so a retry on another gateway (after the first died mid-call) joins that run, its hold and its
 * charge instead of starting a second one. The fingerprint is in it so a reused key never meets an
 * older run of another request.
 */
export function runIdOf(workspaceId: string, key: string, fingerprint: string): string {
  return `run_${sha256(`${workspaceId}\n${key}\n${fingerprint}`).slice(0, 24)}`;
}
