import { millicredits } from './credits';
import { accountEntry } from './grants';
import type { LedgerEntry } from './ledger';
import { PLAN_CATALOG, type TopupTier } from './plans';

/**
 * Purchased credits (decision 0040): one balance plus a counter of purchased millicredits not yet
 * spent. Plan credits are spent first, so the purchased part is whatever of the balance the
 * counter still covers.
 */
export function purchasedRemaining(account: { balance: number; purchased?: number }): number {
  return Math.min(account.purchased ?? 0, Math.max(0, account.balance));
}

/** The catalog's top-up tier of this many credits, if there is one. */
export function topupTier(credits: number): TopupTier | undefined {
  return PLAN_CATALOG.topup_tiers.find((tier) => tier.credits === credits);
}

/** The smallest catalog top-up tier of at least `needed` millicredits; the largest when none is. */
export function topupTierCovering(needed: number): TopupTier {
  const tiers = [...PLAN_CATALOG.topup_tiers].sort((a, b) => a.credits - b.credits);
  return tiers.find((tier) => millicredits(tier.credits) >= needed) ?? tiers[tiers.length - 1]!;
}

/** The checkout's metadata: what the completed session grants, and to whom. */
export function purchaseMetadata(workspaceId: string, credits: number): Record<string, string> {
  return { purpose: 'credit_purchase', workspace_id: workspaceId, credits: String(credits) };
}

/** A completed checkout session as the webhook carries it. */
export interface CompletedCheckout {
  id: string;
  mode?: string | null;
  payment_status?: string | null;
  metadata?: Record<string, string> | null;
}

/** The purchase a completed, paid checkout session grants; undefined for any other session. */
export function purchaseOf(session: CompletedCheckout): { workspaceId: string; credits: number } | undefined {
  const metadata = session.metadata ?? {};
  if (session.mode !== 'payment' || session.payment_status !== 'paid' || metadata.purpose !== 'credit_purchase') {
    return undefined;
  }
  const credits = Number(metadata.credits);
  if (!metadata.workspace_id || !topupTier(credits)) return undefined;
  return { workspaceId: metadata.workspace_id, credits };
}

/** The ledger line of a purchase, keyed by its checkout session so a redelivery writes nothing twice. */
export function purchaseEntry(sessionId: string, workspaceId: string, credits: number, now: number): LedgerEntry {
  return accountEntry(
    `purchase:${sessionId}`,
    workspaceId,
    'topup',
    millicredits(credits),
    `${credits} credits purchased`,
    now,
  );
}
