import { createHash, randomBytes } from 'node:crypto';
import baseX from 'base-x';

/** Every key starts with the live-key prefix, so leaked keys are recognisable (secret scanners). */
export const KEY_PREFIX = 'rde_live_';

/** The prefix, then a secret of URL-safe characters long enough to be unguessable. */
export const WELL_FORMED_KEY = /^rde_live_[A-Za-z0-9_-]{24,128}$/;

const SECRET_BYTES = 32;
/** Letters and digits only: a key selects whole on a double click and its prefix reads cleanly. */
const base62 = baseX('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz');
/** How many characters of the secret a listing shows beside the prefix, to tell keys apart. */
const SHOWN_SECRET_CHARS = 4;

/** A key as it is minted: the plaintext goes to the user once, only the hash and prefix are stored. */
export interface KeyMaterial {
  readonly plaintext: string;
  readonly hash: string;
  readonly displayPrefix: string;
}

export function mintKeyMaterial(): KeyMaterial {
  return keyMaterialOf(KEY_PREFIX + base62.encode(randomBytes(SECRET_BYTES)));
}

/** The material of a given plaintext (the dev workspace's configured key); it must be well formed. */
export function keyMaterialOf(plaintext: string): KeyMaterial {
  return {
    plaintext,
    hash: hashKey(plaintext),
    displayPrefix: plaintext.slice(0, KEY_PREFIX.length + SHOWN_SECRET_CHARS),
  };
}

/**
 * SHA-256 of the whole key. The secret is 256 random bits, so a fast hash is enough: nobody can
 * brute-force that space, slow hashes only protect low-entropy passwords (decision 0005).
 */
export function hashKey(plaintext: string): string {
  return createHash('sha256').update(plaintext).digest('hex');
}
