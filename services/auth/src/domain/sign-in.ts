/** How long an emailed link and its code stay usable. */
export const MAGIC_LINK_TTL_MS = 15 * 60_000;
/** How long a set-password link stays usable. */
export const SET_PASSWORD_TTL_MS = 60 * 60_000;
/** A browser session's lifetime (decision 0023). */
export const SESSION_TTL_MS = 30 * 24 * 60 * 60_000;
/** How long a CLI claim waits for its approval and its one poll. */
export const CLAIM_TTL_MS = 10 * 60_000;
/** Wrong codes an email may try within CODE_WINDOW_MS before verify-code answers `locked`. */
export const CODE_GUESS_CAP = 5;
/** verify-code requests an email may make within CODE_WINDOW_MS, right or wrong. */
export const CODE_REQUEST_CAP = 20;
export const CODE_WINDOW_MS = MAGIC_LINK_TTL_MS;
/** Sign-in and set-password emails one address may be sent within CODE_WINDOW_MS (no mail bombing). */
export const EMAIL_SEND_CAP = 5;
export const WELL_FORMED_CODE = /^\d{6}$/;

/**
 * The `next` allowlist: only a same-origin absolute path is kept (`/datasets?x=1`), never a URL
 * with a scheme or host, `//host`, or a backslash some browsers read as a slash.
 */
export function allowedNext(next: string | undefined): string | undefined {
  if (!next || next.length > 512) return undefined;
  if (!next.startsWith('/') || next.startsWith('//') || /[\\\s]/.test(next)) return undefined;
  return next;
}

/** Why a magic link or code cannot be spent: the spec's reasons, each with a message for people. */
export const SPEND_FAILURES = {
  missing: 'No sign-in token was given',
  unknown: 'This sign-in link or code is not valid',
  used: 'This sign-in link or code was already used',
  expired: 'This sign-in link or code has expired; ask for a new one',
  wrong: 'That code is not right',
  locked: 'Too many attempts for this email; ask for a new link later',
  invalid: 'A code is 6 digits',
} as const;
export type SpendFailure = keyof typeof SPEND_FAILURES;
