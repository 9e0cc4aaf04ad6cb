import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Inbound webhook ids (decision 0075): `wh_` and 256 random bits in base64url (43 characters). The
 * id is the URL's only authentication, so only its SHA-256 is stored, looked up by that hash and
 * compared again in constant time.
 */
const PREFIX = 'wh_';
const SHAPE = /^wh_[A-Za-z0-9_-]{43}$/;

export function newWebhookId(): string {
  return `${PREFIX}${randomBytes(32).toString('base64url')}`;
}

/** Whether a path segment could be one of our ids at all (anything else is not looked up). */
export function isWebhookIdShape(text: string): boolean {
  return SHAPE.test(text);
}

export function webhookHashOf(id: string): string {
  return createHash('sha256').update(id).digest('hex');
}

/** Compares two hex hashes without leaking, by timing, how much of them matched. */
export function sameHash(left: string, right: string): boolean {
  const a = Buffer.from(left, 'hex');
  const b = Buffer.from(right, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}
