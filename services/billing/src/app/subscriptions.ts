import Stripe from 'stripe';
import { errors, httpError, type Caller, type Clock, type Logger } from '@rde/platform';
import type { CreditBook } from './credit-book';
import type { PlanGrants } from './grants';
import { PLAN_CATALOG, type PlanId, type TopupTier } from '../domain/plans';
import {
  purchaseEntry,
  purchaseMetadata,
  purchaseOf,
  topupTier,
  topupTierCovering,
  type CompletedCheckout,
} from '../domain/purchases';
import { requireOwner } from '../domain/roles';
import {
  SELF_SERVE_PLAN_IDS,
  changeKind,
  fromProvider,
  isLive,
  providerMetadata,
  planStateOf,
  providerPrice,
  subscriptionView,
  type Cadence,
  type PlanState,
  type ProviderSubscription,
  type SubscriptionDocument,
  type SubscriptionView,
} from '../domain/subscriptions';
import type { SpendCapsRepository } from '../store/caps';
import type { SubscriptionsRepository } from '../store/subscriptions';

const MONTH_MS = 30 * 24 * 60 * 60_000;
const SUBSCRIPTION_EVENTS = new Set([
  'customer.subscription.created',
  'customer.subscription.updated',
  'customer.subscription.deleted',
]);

export interface SubscriptionOptions {
  webhookSecret: string;
  returnUrl: string;
}

/** The checkout page offered to a refused member: a top-up tier's credits, or a plan. */
export type ShortfallCheckout = { url: string; credits: number } | { url: string; plan_id: PlanId };

export type ChangeResult =
  | { applied: 'immediate'; subscription: SubscriptionView }
  | { applied: 'scheduled'; effective_at: string; subscription: SubscriptionView };

const topupPlanRequired = () =>
  errors.paymentRequired({
    error: 'plan_required',
    feature: 'topup',
    required_plan: SELF_SERVE_PLAN_IDS[0],
    current_plan: 'free',
    message: 'Buying credits needs a paid plan.',
    detail: 'Buying credits needs a paid plan: subscribe first.',
  });

/**
 * The spec's 503 body, plus what to configure: a newcomer meets it first in development, where
 * credits come from `rde admin grant-credits` instead (decision 0051).
 */
const stripeDisabled = (workspaceId = '<workspace id>') =>
  httpError(503, {
    error: 'stripe_disabled',
    message: 'Payments are not configured on this deployment.',
    detail:
      'Payments are not configured on this deployment: set RDE_STRIPE_SECRET_KEY (and RDE_STRIPE_WEBHOOK_SECRET ' +
      'for webhooks). In development, grant credits instead: ' +
      `rde admin grant-credits --workspace ${workspaceId} --credits <n> --reason "<why>"`,
  });

const noSubscription = () =>
  httpError(404, { error: 'no_subscription', detail: 'This workspace has no subscription (it is on Free).' });

/** A provider failure is the provider's (502), never our crash; its message names what it refused. */
async function provided<T>(call: Promise<T>): Promise<T> {
  try {
    return await call;
  } catch (error) {
    if (error instanceof Stripe.errors.StripeError) {
      throw httpError(502, { error: 'payment_provider_error', detail: error.message });
    }
    throw error;
  }
}

/** Subscriptions on the payment provider (decision 0022). */
export class Subscriptions {
  constructor(
    private readonly provider: Stripe | undefined,
    private readonly subscriptions: SubscriptionsRepository,
    private readonly caps: SpendCapsRepository,
    private readonly book: CreditBook,
    private readonly grants: PlanGrants,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly options: SubscriptionOptions,
  ) {}

  async planState(workspaceId: string): Promise<PlanState> {
    return planStateOf(await this.subscriptions.find(workspaceId));
  }

  async checkout(caller: Caller, planId: string, cadence: string): Promise<string> {
    const provider = this.enabled(caller);
    const target = selfServe(planId, cadence);
    const current = await this.subscriptions.find(caller.workspaceId);
    if (isLive(current)) {
      throw errors.conflict({
        error: 'already_subscribed',
        detail: 'This workspace already has a subscription: use /change.',
      });
    }
    return this.planCheckout(provider, caller.workspaceId, current, target);
  }

  /**
   * A hosted checkout page paying once for a catalog top-up tier (decision 0040); the credits are
   * granted by the webhook when the session completes paid.
   */
  async creditCheckout(caller: Caller, credits: number): Promise<string> {
    const provider = this.enabled(caller);
    const tier = topupTier(credits);
    if (!tier) throw errors.badRequest({ detail: "credits must be one of the plan catalog's topup_tiers" });
    const current = await this.subscriptions.find(caller.workspaceId);
    if (PLAN_CATALOG.topup_requires_plan && !isLive(current)) throw topupPlanRequired();
    return this.tierCheckout(provider, caller.workspaceId, current, tier);
  }

  /**
   * Where a member refused for want of credits can pay for what they asked (decision 0046): the
   * smallest top-up tier covering `needed` millicredits (the largest when none does), or on Free,
   * where top-ups need a plan, the first self-serve plan's monthly checkout. Any member may get the
   * page (paying is what changes the account); undefined without a payment provider.
   */
  async shortfallCheckout(caller: Caller, needed: number): Promise<ShortfallCheckout | undefined> {
    if (!this.provider) return undefined;
    const current = await this.subscriptions.find(caller.workspaceId);
    if (PLAN_CATALOG.topup_requires_plan && !isLive(current)) {
      const target = { plan_id: SELF_SERVE_PLAN_IDS[0]!, cadence: 'monthly' as const };
      return {
        url: await this.planCheckout(this.provider, caller.workspaceId, current, target),
        plan_id: target.plan_id,
      };
    }
    const tier = topupTierCovering(needed);
    return { url: await this.tierCheckout(this.provider, caller.workspaceId, current, tier), credits: tier.credits };
  }

  private planCheckout(
    provider: Stripe,
    workspaceId: string,
    current: SubscriptionDocument | null,
    target: { plan_id: PlanId; cadence: Cadence },
  ): Promise<string> {
    const metadata = providerMetadata(workspaceId, target.plan_id, target.cadence);
    return this.hostedCheckout(provider, workspaceId, current, {
      mode: 'subscription',
      line_items: [{ quantity: 1, price_data: providerPrice(target.plan_id, target.cadence) }],
      subscription_data: { metadata },
      metadata,
    });
  }

  private tierCheckout(
    provider: Stripe,
    workspaceId: string,
    current: SubscriptionDocument | null,
    tier: TopupTier,
  ): Promise<string> {
    const metadata = purchaseMetadata(workspaceId, tier.credits);
    return this.hostedCheckout(provider, workspaceId, current, {
      mode: 'payment',
      line_items: [
        {
          quantity: 1,
          price_data: {
            currency: 'usd',
            unit_amount: tier.amount_cents,
            product_data: { name: `${tier.credits} RDE credits` },
          },
        },
      ],
      payment_intent_data: { metadata },
      metadata,
    });
  }

  async change(caller: Caller, planId: string, cadence: string): Promise<ChangeResult> {
    const provider = this.enabled(caller);
    const target = selfServe(planId, cadence);
    const current = await this.liveSubscription(caller.workspaceId);
    const kind = changeKind(current, target);
    if (kind === 'same')
      throw errors.badRequest({ error: 'same_plan', detail: 'The workspace is already on this plan.' });
    const stamp = this.stamp();
    if (kind === 'downgrade') {
      const changed = await this.subscriptions.change(caller.workspaceId, {
        pending_plan_id: target.plan_id,
        pending_cadence: target.cadence,
        ...stamp,
      });
      return {
        applied: 'scheduled',
        effective_at: new Date(changed.current_period_end).toISOString(),
        subscription: subscriptionView(changed),
      };
    }
    await provided(
      provider.subscriptions.update(current.stripe_subscription_id, {
        items: [{ id: current.stripe_item_id, price_data: providerPrice(target.plan_id, target.cadence) }],
        proration_behavior: 'create_prorations',
        metadata: providerMetadata(caller.workspaceId, target.plan_id, target.cadence),
      }),
    );
    const changed = await this.subscriptions.change(caller.workspaceId, {
      plan_id: target.plan_id,
      cadence: target.cadence,
      pending_plan_id: null,
      pending_cadence: null,
      ...stamp,
    });
    await this.caps.setPlan(caller.workspaceId, target.plan_id);
    return { applied: 'immediate', subscription: subscriptionView(changed) };
  }

  /** Cancel at period end (dropping a pending downgrade), or resume. */
  async cancel(caller: Caller, resume: boolean): Promise<SubscriptionView> {
    const provider = this.enabled(caller);
    const current = await this.liveSubscription(caller.workspaceId);
    await provided(provider.subscriptions.update(current.stripe_subscription_id, { cancel_at_period_end: !resume }));
    const pending = resume ? {} : { pending_plan_id: null, pending_cadence: null };
    const changed = await this.subscriptions.change(caller.workspaceId, {
      cancel_at_period_end: !resume,
      ...pending,
      ...this.stamp(),
    });
    return subscriptionView(changed);
  }

  async portal(caller: Caller): Promise<string> {
    const provider = this.enabled(caller);
    const current = await this.subscriptions.find(caller.workspaceId);
    const customer = await this.customer(provider, caller.workspaceId, current);
    const session = await provided(
      provider.billingPortal.sessions.create({ customer, return_url: this.options.returnUrl }),
    );
    return session.url;
  }

  /** A webhook delivery: verified, applied once, older-than-known state ignored. */
  async applyProviderEvent(payload: Buffer, signature: string): Promise<boolean> {
    if (!this.provider || !this.options.webhookSecret) throw stripeDisabled();
    let event: Stripe.Event;
    try {
      event = this.provider.webhooks.constructEvent(payload, signature, this.options.webhookSecret);
    } catch {
      throw errors.badRequest({ detail: 'invalid webhook signature' });
    }
    if (await this.subscriptions.eventSeen(event.id)) return false;
    const applied = await this.applyEvent(event);
    await this.subscriptions.recordEvent({
      _id: event.id,
      type: event.type,
      created: event.created,
      applied_at: this.clock.now(),
    });
    return applied;
  }

  /** Applies every downgrade whose period ended; returns how many. */
  async applyDueDowngrades(): Promise<number> {
    let applied = 0;
    for (const due of await this.subscriptions.dueDowngrades(this.clock.now())) {
      const planId = due.pending_plan_id!;
      const cadence = due.pending_cadence ?? due.cadence;
      await this.provider?.subscriptions.update(due.stripe_subscription_id, {
        items: [{ id: due.stripe_item_id, price_data: providerPrice(planId, cadence) }],
        proration_behavior: 'none',
        metadata: providerMetadata(due._id, planId, cadence),
      });
      const graceMonths = PLAN_CATALOG.downgrade_grace_months;
      const done = await this.subscriptions.applyPending(due, {
        plan_id: planId,
        cadence,
        cap_grace_until: due.current_period_end + graceMonths * MONTH_MS,
        ...this.stamp(),
      });
      if (!done) continue;
      await this.caps.setPlan(due._id, planId);
      this.logger.info({ workspaceId: due._id, planId, cadence }, 'scheduled downgrade applied');
      applied++;
    }
    return applied;
  }

  private async applyEvent(event: Stripe.Event): Promise<boolean> {
    if (SUBSCRIPTION_EVENTS.has(event.type)) {
      return this.applySubscription(event.data.object as unknown as ProviderSubscription, event.created);
    }
    if (event.type === 'checkout.session.completed') {
      return this.applyPurchase(event.data.object as unknown as CompletedCheckout);
    }
    return false;
  }

  /** A paid credit checkout grants its credits once, keyed by the session (decision 0040). */
  private async applyPurchase(session: CompletedCheckout): Promise<boolean> {
    const purchase = purchaseOf(session);
    if (!purchase) return false;
    await this.book.account(purchase.workspaceId);
    await this.grants.grantPurchase(
      purchaseEntry(session.id, purchase.workspaceId, purchase.credits, this.clock.now()),
    );
    return true;
  }

  private async applySubscription(object: ProviderSubscription, created: number): Promise<boolean> {
    const state = fromProvider(object);
    const customer = typeof object.customer === 'string' ? object.customer : object.customer?.id;
    const workspaceId = object.metadata?.workspace_id || (await this.subscriptions.byCustomer(customer))?._id;
    if (!state || !workspaceId) {
      this.logger.warn(
        { subscription: object.id, customer },
        'provider subscription names no workspace or plan; ignored',
      );
      return false;
    }
    const applied = await this.subscriptions.applyProviderState(workspaceId, { ...state, event_created: created });
    if (applied) {
      await this.book.account(workspaceId);
      await this.caps.setPlan(workspaceId, isLive(state) ? state.plan_id : 'free');
      if (isLive(state)) {
        // The first grant is due at the period start: made now, not at the job's next round.
        await this.subscriptions.startGrants(workspaceId, state.current_period_start);
        const subscription = await this.subscriptions.find(workspaceId);
        if (subscription) await this.grants.grantFor(subscription);
      }
    }
    return applied;
  }

  /** Owner-only first, then the 503 when payments are off. */
  private enabled(caller: Caller): Stripe {
    requireOwner(caller);
    if (!this.provider) throw stripeDisabled(caller.workspaceId);
    return this.provider;
  }

  private async liveSubscription(workspaceId: string): Promise<SubscriptionDocument> {
    const current = await this.subscriptions.find(workspaceId);
    if (!current || !isLive(current)) throw noSubscription();
    return current;
  }

  /** A hosted checkout session for the workspace's customer, returning to our billing page. */
  private async hostedCheckout(
    provider: Stripe,
    workspaceId: string,
    current: SubscriptionDocument | null,
    params: Stripe.Checkout.SessionCreateParams,
  ): Promise<string> {
    const customer = await this.customer(provider, workspaceId, current);
    const session = await provided(
      provider.checkout.sessions.create({
        ...params,
        customer,
        client_reference_id: workspaceId,
        success_url: this.options.returnUrl,
        cancel_url: this.options.returnUrl,
      }),
    );
    if (!session.url) throw new Error('the payment provider returned a checkout session without a url');
    return session.url;
  }

  private async customer(provider: Stripe, workspaceId: string, current: SubscriptionDocument | null) {
    if (current?.stripe_customer_id) return current.stripe_customer_id;
    const created = await provided(provider.customers.create({ metadata: { workspace_id: workspaceId } }));
    await this.subscriptions.saveCustomer(workspaceId, created.id);
    return created.id;
  }

  /** Our own changes count as state at this moment: a provider event created before it is older. */
  private stamp() {
    return { event_created: Math.floor(this.clock.now() / 1000) };
  }
}

function selfServe(planId: string, cadence: string): { plan_id: PlanId; cadence: Cadence } {
  if (!SELF_SERVE_PLAN_IDS.includes(planId as PlanId) || (cadence !== 'monthly' && cadence !== 'annual')) {
    throw errors.badRequest({ detail: 'plan_id must be a self-serve plan and cadence monthly or annual' });
  }
  return { plan_id: planId as PlanId, cadence };
}
