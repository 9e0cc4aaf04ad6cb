/** Every stored amount is an integer of millicredits (decision 0004); the public JSON shows credits. */
export const MILLICREDITS_PER_CREDIT = 1000;

export function millicredits(credits: number): number {
  return Math.round(credits * MILLICREDITS_PER_CREDIT);
}

export function publicCredits(amount: number): number {
  return amount / MILLICREDITS_PER_CREDIT;
}

/** A stored amount must be a safe non-negative integer: no float ever feeds the ledger. */
export function isMillicredits(amount: unknown): amount is number {
  return typeof amount === 'number' && Number.isSafeInteger(amount) && amount >= 0;
}
