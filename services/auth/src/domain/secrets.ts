import { createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import baseX from 'base-x';
import { hashKey } from './api-key';

const base62 = baseX('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz');

/**
 * A bearer-grade secret (session, magic link, claim, invite code): a prefix naming what it is,
 * then 256 random bits. Only its hash is ever stored.
 */
export function mintSecret(prefix: 'rde_ses_' | 'rde_ml_' | 'rde_clm_' | 'rde_inv_' | 'rde_pw_' | 'rde_st_'): string {
  return prefix + base62.encode(randomBytes(32));
}

/**
 * SHA-256, as for API keys: the secrets above carry 256 random bits, so a fast hash cannot be
 * brute-forced, and one hash lets a bearer be looked up as a key or as a session alike.
 */
export const hashSecret = hashKey;

/** A 6-digit code, uniformly drawn. */
export function mintCode(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, '0');
}

/**
 * A code's stored form, salted by its row so equal codes on two rows hash apart. Six digits are
 * guessable offline whatever the hash; the guess cap is what protects them online.
 */
export function hashCode(rowId: string, code: string): string {
  return hashSecret(`${rowId}:${code}`);
}

/** Compares two hex digests in constant time. */
export function sameDigest(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}

/**
 * A value derived from an OAuth state with the service's secret (the PKCE verifier, the nonce):
 * reproducible at the callback, so it is never stored, and unknowable without the secret.
 */
export function deriveFromState(secret: string, purpose: 'pkce' | 'nonce', state: string): string {
  return createHmac('sha256', secret).update(`${purpose}:${state}`).digest('base64url');
}
