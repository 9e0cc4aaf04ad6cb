import { errors, type Caller } from '@rde/platform';
import {
  changeKind,
  providerMetadata,
  providerPrice,
  subscriptionView,
  type SubscriptionView,
} from '../domain/subscriptions';
import {
  customerOf,
  enabledProvider,
  liveSubscription,
  selfServe,
  stamp,
  type SubscriptionContext,
} from './subscription-context';

export type ChangeResult =
  | { applied: 'immediate'; subscription: SubscriptionView }
  | { applied: 'scheduled'; effective_at: string; subscription: SubscriptionView };

/** An owner changes, cancels or resumes the plan, or opens the provider's portal. */
export class PlanChanges {
  constructor(private readonly context: SubscriptionContext) {}

  /** An upgrade applies now (prorated); a downgrade waits for the period end. */
  async change(caller: Caller, planId: string, cadence: string): Promise<ChangeResult> {
    const { subscriptions, clock } = this.context;
    const provider = enabledProvider(this.context, caller);
    const target = selfServe(planId, cadence);
    const current = await liveSubscription(this.context, caller.workspaceId);
    const kind = changeKind(current, target);
    if (kind === 'same')
      throw errors.badRequest({ error: 'same_plan', detail: 'The workspace is already on this plan.' });
    const stamped = stamp(clock);
    if (kind === 'downgrade') {
      const changed = await subscriptions.change(caller.workspaceId, {
        pending_plan_id: target.plan_id,
        pending_cadence: target.cadence,
        ...stamped,
      });
      return {
        applied: 'scheduled',
        effective_at: new Date(changed.current_period_end).toISOString(),
        subscription: subscriptionView(changed),
      };
    }
    await provider.updateSubscription(current.stripe_subscription_id, {
      items: [{ id: current.stripe_item_id, price_data: providerPrice(target.plan_id, target.cadence) }],
      proration_behavior: 'create_prorations',
      metadata: providerMetadata(caller.workspaceId, target.plan_id, target.cadence),
    });
    const changed = await subscriptions.change(caller.workspaceId, {
      plan_id: target.plan_id,
      cadence: target.cadence,
      pending_plan_id: null,
      pending_cadence: null,
      ...stamped,
    });
    await this.context.caps.setPlan(caller.workspaceId, target.plan_id);
    return { applied: 'immediate', subscription: subscriptionView(changed) };
  }

  /** Cancel at period end (dropping a pending downgrade), or resume. */
  async cancel(caller: Caller, resume: boolean): Promise<SubscriptionView> {
    const provider = enabledProvider(this.context, caller);
    const current = await liveSubscription(this.context, caller.workspaceId);
    await provider.updateSubscription(current.stripe_subscription_id, { cancel_at_period_end: !resume });
    const pending = resume ? {} : { pending_plan_id: null, pending_cadence: null };
    const changed = await this.context.subscriptions.change(caller.workspaceId, {
      cancel_at_period_end: !resume,
      ...pending,
      ...stamp(this.context.clock),
    });
    return subscriptionView(changed);
  }

  async portal(caller: Caller): Promise<string> {
    const provider = enabledProvider(this.context, caller);
    const current = await this.context.subscriptions.find(caller.workspaceId);
    const customer = await customerOf(this.context, provider, caller.workspaceId, current);
    return provider.portalUrl(customer, this.context.options.returnUrl);
  }
}
