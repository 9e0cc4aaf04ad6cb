import { millicredits } from './credits';
import type { LedgerEntry } from './ledger';
import { planById, type PlanId } from './plans';

/**
 * Monthly plan grants and rollover (decision 0022). A grant's id is its workspace and due time,
 * so a rerun writes nothing twice; plan credits carried into a new month are cut so that right
 * after the grant the workspace holds at most `rollover_cap_multiplier` months of plan credits.
 */

/** One calendar month later (UTC), the grant cadence for monthly and annual plans alike. */
export function nextMonth(ms: number): number {
  const date = new Date(ms);
  date.setUTCMonth(date.getUTCMonth() + 1);
  return date.getTime();
}

export function planGrantId(workspaceId: string, dueAt: number): string {
  return `grant:plan:${workspaceId}:${new Date(dueAt).toISOString()}`;
}

/** Millicredits a grant adds for this plan (0 for plans without monthly credits). */
export function monthlyGrant(planId: PlanId): number {
  return millicredits(planById(planId).monthly_credits ?? 0);
}

/** What of the carried-over balance expires before a grant of `grant` (never negative). */
export function rolloverExcess(balance: number, planId: PlanId, grant: number): number {
  const multiplier = planById(planId).rollover_cap_multiplier;
  if (!multiplier || grant === 0) return 0;
  return Math.max(0, balance - (multiplier * grant - grant));
}

/** A ledger line the account applies whole (grants, cuts, purchases): no run, hold or member. */
export function accountEntry(
  id: string,
  workspaceId: string,
  kind: LedgerEntry['kind'],
  amount: number,
  description: string,
  at: number,
): LedgerEntry {
  return {
    _id: id,
    workspace_id: workspaceId,
    kind,
    amount,
    description,
    run_id: '',
    hold_id: '',
    user_id: '',
    session_id: '',
    created_at: at,
  };
}

export function planGrantEntry(
  workspaceId: string,
  planId: PlanId,
  dueAt: number,
  amount: number,
  now: number,
): LedgerEntry {
  return accountEntry(
    planGrantId(workspaceId, dueAt),
    workspaceId,
    'grant',
    amount,
    `${planById(planId).name} monthly credit grant`,
    now,
  );
}

/** The rollover cut before a grant, keyed by that grant. */
export function rolloverEntry(grantId: string, workspaceId: string, excess: number, now: number): LedgerEntry {
  return accountEntry(
    `rollover:${grantId}`,
    workspaceId,
    'correction',
    -excess,
    'Unused plan credits past the rollover cap',
    now,
  );
}
