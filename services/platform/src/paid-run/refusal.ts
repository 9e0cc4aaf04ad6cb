import type { billing } from '@rde/proto';
import { RdeError } from '../errors';

/** A cap that refused a hold, whole or in part (decision 0020): why, which cap, what it said. */
export interface CapRefusal {
  readonly reason: 'spending_cap_reached' | 'session_limit';
  /** `member` or `workspace` for a spending cap; empty for a session's. */
  readonly scope: string;
  readonly detail: string;
}

/**
 * Why billing held nothing, decoded once from its 402: no credit available (`available`, in
 * millicredits, is what could be held instead), or a cap. `error` is billing's 402 as it came, for
 * callers whose answer is that refusal.
 */
export type HoldRefusal =
  | { readonly reason: 'insufficient_credits'; readonly available: number; readonly error: RdeError }
  | (CapRefusal & { readonly error: RdeError });

/** The refusal billing's Reserve threw, or undefined when `error` is anything else. */
export function holdRefusalOf(error: unknown): HoldRefusal | undefined {
  if (!(error instanceof RdeError) || error.httpStatus !== 402) return undefined;
  const body = error.body;
  if (body.error === 'insufficient_credits') {
    // Billing states what is available in credits; holds are in millicredits.
    const available = typeof body.available === 'number' ? Math.floor(body.available * 1000) : 0;
    return { reason: 'insufficient_credits', available, error };
  }
  const reason = body.reason ?? body.error;
  if (reason !== 'spending_cap_reached' && reason !== 'session_limit') return undefined;
  return { reason, scope: text(body.cap_scope), detail: text(body.detail), error };
}

/** The cap that trimmed a held amount, from Reserve's typed field; undefined when none did. */
export function capRefusalOf(message: billing.CapRefusal | undefined): CapRefusal | undefined {
  if (!message?.reason) return undefined;
  const reason = message.reason === 'session_limit' ? 'session_limit' : 'spending_cap_reached';
  return { reason, scope: message.capScope, detail: message.detail };
}

function text(field: unknown): string {
  return typeof field === 'string' ? field : '';
}
