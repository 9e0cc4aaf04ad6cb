import { CAP_WINDOW_DAYS, dayKey, windowSpend, type CapFields } from './caps';
import { publicCredits } from './credits';
import { FREE_GRANT_CREDITS, planById } from './plans';
import { purchasedRemaining } from './purchases';

const DAY_MS = 24 * 60 * 60_000;

/** What the overview reads of the account. */
export interface OverviewAccount extends CapFields {
  balance: number;
  reserved: number;
  available: number;
  purchased?: number;
  purchased_total?: number;
}

/** Credits held or spent per UTC day over the cap window, oldest first, every day present. */
export function usageSeries(spend: Record<string, number> | undefined, now: number) {
  return Array.from({ length: CAP_WINDOW_DAYS }, (_, index) => {
    const day = now - (CAP_WINDOW_DAYS - 1 - index) * DAY_MS;
    return { date: new Date(day).toISOString().slice(0, 10), credits: publicCredits(spend?.[dayKey(day)] ?? 0) };
  });
}

/**
 * The spec's buckets (decision 0040): `purchased_credits` is every credit bought, and of the
 * balance the purchased counter covers the purchased part; the rest is plan credits, spent first.
 */
export function buckets(account: OverviewAccount) {
  const plan = planById(account.plan_id);
  const purchased = purchasedRemaining(account);
  const monthly = plan.monthly_credits || (plan.id === 'free' ? FREE_GRANT_CREDITS : 0);
  return {
    balance: publicCredits(account.balance),
    plan_credits: monthly,
    purchased_credits: publicCredits(account.purchased_total ?? 0),
    plan_remaining: publicCredits(Math.max(0, account.balance) - purchased),
    purchased_remaining: publicCredits(purchased),
    rollover_cap:
      plan.rollover_cap_multiplier && plan.monthly_credits ? plan.rollover_cap_multiplier * plan.monthly_credits : null,
  };
}

/** The overview's own fields; the plan state and the ledger rows are added beside it. */
export function overview(account: OverviewAccount, now: number) {
  return {
    balance: publicCredits(account.balance),
    reserved: publicCredits(account.reserved),
    available: publicCredits(account.available),
    spend_30d: publicCredits(windowSpend(account.spend, now)),
    spending_cap: account.workspace_cap === undefined ? null : publicCredits(account.workspace_cap),
    usage: usageSeries(account.spend, now),
    session_spend_cap: account.session_default_cap_cents === undefined ? null : account.session_default_cap_cents / 100,
    buckets: buckets(account),
  };
}
