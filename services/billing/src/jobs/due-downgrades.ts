import { stamp, type SubscriptionContext } from '../app/subscription-context';
import { PLAN_CATALOG } from '../domain/plans';
import { providerMetadata, providerPrice } from '../domain/subscriptions';

const MONTH_MS = 30 * 24 * 60 * 60_000;

/** The period-end job's first half: every downgrade whose period ended is applied. */
export class DueDowngrades {
  constructor(private readonly context: SubscriptionContext) {}

  /** Applies every downgrade whose period ended; returns how many. */
  async apply(): Promise<number> {
    const { subscriptions, provider, clock } = this.context;
    let applied = 0;
    for (const due of await subscriptions.dueDowngrades(clock.now())) {
      const planId = due.pending_plan_id!;
      const cadence = due.pending_cadence ?? due.cadence;
      await provider?.updateSubscription(due.stripe_subscription_id, {
        items: [{ id: due.stripe_item_id, price_data: providerPrice(planId, cadence) }],
        proration_behavior: 'none',
        metadata: providerMetadata(due._id, planId, cadence),
      });
      const graceMonths = PLAN_CATALOG.downgrade_grace_months;
      const done = await subscriptions.applyPending(due, {
        plan_id: planId,
        cadence,
        cap_grace_until: due.current_period_end + graceMonths * MONTH_MS,
        ...stamp(clock),
      });
      if (!done) continue;
      await this.context.caps.setPlan(due._id, planId);
      this.context.logger.info({ workspaceId: due._id, planId, cadence }, 'scheduled downgrade applied');
      applied++;
    }
    return applied;
  }
}
