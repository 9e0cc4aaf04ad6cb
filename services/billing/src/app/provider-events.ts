import { errors } from '@rde/platform';
import type { ProviderEvent } from '../clients/stripe';
import { purchaseEntry, purchaseOf, type CompletedCheckout } from '../domain/purchases';
import { fromProvider, isLive, type ProviderSubscription } from '../domain/subscriptions';
import { stripeDisabled, type SubscriptionContext } from './subscription-context';

const SUBSCRIPTION_EVENTS = new Set([
  'customer.subscription.created',
  'customer.subscription.updated',
  'customer.subscription.deleted',
]);

/** The provider's webhook deliveries: verified, applied once, older-than-known state ignored. */
export class ProviderEvents {
  constructor(private readonly context: SubscriptionContext) {}

  async apply(payload: Buffer, signature: string): Promise<boolean> {
    const { provider, options, subscriptions, clock } = this.context;
    if (!provider || !options.webhookSecret) throw stripeDisabled();
    const event = provider.verifiedEvent(payload, signature, options.webhookSecret);
    if (!event) throw errors.badRequest({ detail: 'invalid webhook signature' });
    if (await subscriptions.eventSeen(event.id)) return false;
    const applied = await this.applyEvent(event);
    await subscriptions.recordEvent({
      _id: event.id,
      type: event.type,
      created: event.created,
      applied_at: clock.now(),
    });
    return applied;
  }

  private async applyEvent(event: ProviderEvent): Promise<boolean> {
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
    await this.context.book.account(purchase.workspaceId);
    await this.context.grants.grantPurchase(
      purchaseEntry(session.id, purchase.workspaceId, purchase.credits, this.context.clock.now()),
    );
    return true;
  }

  private async applySubscription(object: ProviderSubscription, created: number): Promise<boolean> {
    const { subscriptions, logger } = this.context;
    const state = fromProvider(object);
    const customer = typeof object.customer === 'string' ? object.customer : object.customer?.id;
    const workspaceId = object.metadata?.workspace_id || (await subscriptions.byCustomer(customer))?._id;
    if (!state || !workspaceId) {
      logger.warn({ subscription: object.id, customer }, 'provider subscription names no workspace or plan; ignored');
      return false;
    }
    const applied = await subscriptions.applyProviderState(workspaceId, { ...state, event_created: created });
    if (applied) {
      await this.context.book.account(workspaceId);
      await this.context.caps.setPlan(workspaceId, isLive(state) ? state.plan_id : 'free');
      if (isLive(state)) {
        // The first grant is due at the period start: made now, not at the job's next round.
        await subscriptions.startGrants(workspaceId, state.current_period_start);
        const subscription = await subscriptions.find(workspaceId);
        if (subscription) await this.context.grants.grantFor(subscription);
      }
    }
    return applied;
  }
}
