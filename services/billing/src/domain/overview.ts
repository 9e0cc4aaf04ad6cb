import { CAP_WINDOW_DAYS, dayKey, windowSpend, type CapFields } from './caps';
import { publicCredits } from './credits';
import { FREE_GRANT_CREDITS, planById } from './plans';

const DAY_MS = 24 * 60 * 60_000;

/** What the overview reads of the account. */
export interface OverviewAccount extends CapFields {
  balance: number;
  reserved: number;
  available: number;
}

/** Credits held or spent per UTC day over the cap window, oldest first, every day present. */
export function usageSeries(spend: Record<string, number> | undefined, now: number) {
  return Array.from({ length: CAP_WINDOW_DAYS }, (_, index) => {
    const day = now - (CAP_WINDOW_DAYS - 1 - index) * DAY_MS;
    return { date: new Date(day).toISOString().slice(0, 10), credits: publicCredits(spend?.[dayKey(day)] ?? 0) };
  });
}

/**
 * The spec's buckets. Every credit so far is a plan credit (the free grant or a plan grant): no
 * purchase route exists yet, so the purchased bucket is empty and plan credits are all that is
 * spent (they are spent first in any case).
 */
export function buckets(account: OverviewAccount) {
  const plan = planById(account.plan_id);
  const monthly = plan.monthly_credits || (plan.id === 'free' ? FREE_GRANT_CREDITS : 0);
  return {
    balance: publicCredits(account.balance),
    plan_credits: monthly,
    purchased_credits: 0,
    plan_remaining: publicCredits(Math.max(0, account.balance)),
    purchased_remaining: 0,
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
