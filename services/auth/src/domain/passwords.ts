import { hash, verify, type Options } from '@node-rs/argon2';

/** `Algorithm.Argon2id` of the binding, a const enum that isolated modules cannot read. */
const ARGON2ID = 2;

/** argon2id at OWASP's first recommended setting: 19 MiB, 2 passes, 1 lane (decision 0023). */
const ARGON2: Options = { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 };

export const PASSWORD_MIN_LENGTH = 10;
export const PASSWORD_MAX_LENGTH = 256;

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2);
}

/** Verifies against a stored PHC string; argon2's own comparison is constant-time. */
export function passwordMatches(passwordHash: string, password: string): Promise<boolean> {
  return verify(passwordHash, password).catch(() => false);
}
