import { errors, type Caller } from '@rde/platform';
import type { CheckoutParams, PaymentProvider } from '../clients/stripe';
import { PLAN_CATALOG, type PlanId, type TopupTier } from '../domain/plans';
import { purchaseMetadata, topupTier, topupTierCovering } from '../domain/purchases';
import {
  SELF_SERVE_PLAN_IDS,
  isLive,
  providerMetadata,
  providerPrice,
  type Cadence,
  type SubscriptionDocument,
} from '../domain/subscriptions';
import { customerOf, enabledProvider, selfServe, type SubscriptionContext } from './subscription-context';

/** The checkout page offered to a refused member: a top-up tier's credits, or a plan. */
export type ShortfallCheckout = { url: string; credits: number } | { url: string; plan_id: PlanId };

const topupPlanRequired = () =>
  errors.paymentRequired({
    error: 'plan_required',
    feature: 'topup',
    required_plan: SELF_SERVE_PLAN_IDS[0],
    current_plan: 'free',
    message: 'Buying credits needs a paid plan.',
    detail: 'Buying credits needs a paid plan: subscribe first.',
  });

/** Hosted checkout pages: a plan, a top-up tier, or what covers a refused member's shortfall. */
export class Checkouts {
  constructor(private readonly context: SubscriptionContext) {}

  async checkout(caller: Caller, planId: string, cadence: string): Promise<string> {
    const provider = enabledProvider(this.context, caller);
    const target = selfServe(planId, cadence);
    const current = await this.context.subscriptions.find(caller.workspaceId);
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
    const provider = enabledProvider(this.context, caller);
    const tier = topupTier(credits);
    if (!tier) throw errors.badRequest({ detail: "credits must be one of the plan catalog's topup_tiers" });
    const current = await this.context.subscriptions.find(caller.workspaceId);
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
    const { provider } = this.context;
    if (!provider) return undefined;
    const current = await this.context.subscriptions.find(caller.workspaceId);
    if (PLAN_CATALOG.topup_requires_plan && !isLive(current)) {
      const target = { plan_id: SELF_SERVE_PLAN_IDS[0]!, cadence: 'monthly' as const };
      return { url: await this.planCheckout(provider, caller.workspaceId, current, target), plan_id: target.plan_id };
    }
    const tier = topupTierCovering(needed);
    return { url: await this.tierCheckout(provider, caller.workspaceId, current, tier), credits: tier.credits };
  }

  private planCheckout(
    provider: PaymentProvider,
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
    provider: PaymentProvider,
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

  /** A hosted checkout session for the workspace's customer, returning to our billing page. */
  private async hostedCheckout(
    provider: PaymentProvider,
    workspaceId: string,
    current: SubscriptionDocument | null,
    params: CheckoutParams,
  ): Promise<string> {
    const customer = await customerOf(this.context, provider, workspaceId, current);
    const { returnUrl } = this.context.options;
    return provider.checkoutUrl({
      ...params,
      customer,
      client_reference_id: workspaceId,
      success_url: returnUrl,
      cancel_url: returnUrl,
    });
  }
}
