import type { Clock, Logger } from '@rde/platform';
import type { CreditBook } from './credit-book';
import { monthlyGrant, nextMonth, planGrantEntry, rolloverEntry, rolloverExcess } from '../domain/grants';
import type { LedgerEntry } from '../domain/ledger';
import { purchasedRemaining } from '../domain/purchases';
import { isLive, type SubscriptionDocument } from '../domain/subscriptions';
import type { GrantsRepository } from '../store/grants';
import type { SubscriptionsRepository } from '../store/subscriptions';
import type { AccountEntries } from './account-entries';

/**
 * Monthly plan grants at `next_grant_at`: the rollover cut, then the grant, each a ledger entry
 * with a deterministic id applied to the account once; then the next due time. A crash anywhere
 * reruns into the same ids and applies nothing twice.
 */
export class PlanGrants {
  constructor(
    private readonly book: CreditBook,
    private readonly entries: AccountEntries,
    private readonly grants: GrantsRepository,
    private readonly subscriptions: SubscriptionsRepository,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  /** Every grant due now; returns how many were made. */
  async grantDue(): Promise<number> {
    let granted = 0;
    for (const subscription of await this.subscriptions.dueGrants(this.clock.now())) {
      granted += await this.grantFor(subscription);
    }
    return granted;
  }

  /** The grants this subscription has due (one per month past), oldest first. */
  async grantFor(subscription: SubscriptionDocument): Promise<number> {
    let current: SubscriptionDocument | null = subscription;
    let granted = 0;
    const now = this.clock.now();
    while (current && isLive(current) && current.next_grant_at !== null && current.next_grant_at <= now) {
      await this.grantOnce(current, current.next_grant_at);
      current = await this.subscriptions.advanceGrant(
        current._id,
        current.next_grant_at,
        nextMonth(current.next_grant_at),
      );
      granted++;
    }
    return granted;
  }

  private async grantOnce(subscription: SubscriptionDocument, dueAt: number): Promise<void> {
    const workspaceId = subscription._id;
    const amount = monthlyGrant(subscription.plan_id);
    if (amount === 0) return;
    const now = this.clock.now();
    const grant = planGrantEntry(workspaceId, subscription.plan_id, dueAt, amount, now);
    const account = await this.book.account(workspaceId);
    if (!this.grants.applied(account, grant._id)) {
      // Purchased credits never expire: only the plan part of the balance is cut.
      const planRemaining = account.balance - purchasedRemaining(account);
      const excess = rolloverExcess(planRemaining, subscription.plan_id, amount);
      if (excess > 0) await this.entries.write(workspaceId, rolloverEntry(grant._id, workspaceId, excess, now));
    }
    await this.entries.write(workspaceId, grant);
    this.logger.info({ workspaceId, grantId: grant._id, amount }, 'plan credits granted');
  }

  /** A purchase's credits, granted once however often its entry is written. */
  async grantPurchase(entry: LedgerEntry): Promise<void> {
    await this.entries.write(entry.workspace_id, entry, true);
    this.logger.info(
      { workspaceId: entry.workspace_id, entryId: entry._id, amount: entry.amount },
      'credits purchased',
    );
  }
}
