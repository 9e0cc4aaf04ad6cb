/** The overview figures the home page warns about (decision 0069). */
export interface Standing {
  available: number;
  spend_30d: number;
  spending_cap: number | null;
}

/** Under this many available credits the balance is low: a few enrichment runs' worth. */
export const LOW_BALANCE_CREDITS = 100;
/** A cap counts as near once this share of it is spent. */
export const CAP_NEAR_SHARE = 0.8;

export function warningsOf({ available, spend_30d: spent, spending_cap: cap }: Standing): string[] {
  const warnings: string[] = [];
  if (available < LOW_BALANCE_CREDITS) warnings.push(`Low balance: ${available} credits available.`);
  if (cap !== null && spent >= cap * CAP_NEAR_SHARE)
    warnings.push(`Spending cap nearly reached: ${spent} of ${cap} credits spent in the last 30 days.`);
  return warnings;
}
