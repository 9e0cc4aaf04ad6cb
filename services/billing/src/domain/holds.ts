import { publicCredits } from './credits';

/**
 * Hold ids are run ids (`run_…`) and become a field name of the account document (`holds.<id>`),
 * so they may hold no `.` or `$`.
 */
const HOLD_ID = /^[A-Za-z0-9_-]{1,128}$/;

export function isHoldId(id: string): boolean {
  return HOLD_ID.test(id);
}

/** Charge ids are free-form (`<provider>:<job_id>` may hold dots): as a field name they are encoded. */
export function chargeKey(chargeId: string): string {
  return Buffer.from(chargeId, 'utf8').toString('base64url');
}

/** What an open hold still covers. */
export function holdRemaining(hold: { amount: number; drawn: number }): number {
  return Math.max(0, hold.amount - hold.drawn);
}

/**
 * How a charge on a hold moves the account: the part the hold still covers leaves `reserved`;
 * anything beyond it (a charge larger than the worst case held) leaves `available`.
 */
export function splitCharge(amount: number, hold: { amount: number; drawn: number } | undefined) {
  const fromHold = hold ? Math.min(amount, holdRemaining(hold)) : 0;
  return { fromHold, beyondHold: amount - fromHold };
}

/** The spec leaves the code open; decision 0004 fixes this body (credits as numbers). */
export function insufficientCreditsBody(required: number, available: number) {
  return {
    error: 'insufficient_credits',
    detail: `This needs ${publicCredits(required)} credits but only ${publicCredits(Math.max(0, available))} are available.`,
    required: publicCredits(required),
    available: publicCredits(Math.max(0, available)),
  };
}
