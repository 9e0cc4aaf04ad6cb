import Stripe from 'stripe';
import { httpError } from '@rde/platform';

export type CheckoutParams = Stripe.Checkout.SessionCreateParams;
export type SubscriptionUpdate = Stripe.SubscriptionUpdateParams;
export type ProviderEvent = Stripe.Event;

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

/** The payment provider (Stripe's official SDK) as billing uses it: the only file that calls it. */
export class PaymentProvider {
  constructor(private readonly stripe: Stripe) {}

  async createCustomer(workspaceId: string): Promise<string> {
    return (await provided(this.stripe.customers.create({ metadata: { workspace_id: workspaceId } }))).id;
  }

  /** A hosted checkout session's page. */
  async checkoutUrl(params: CheckoutParams): Promise<string> {
    const session = await provided(this.stripe.checkout.sessions.create(params));
    if (!session.url) throw new Error('the payment provider returned a checkout session without a url');
    return session.url;
  }

  async updateSubscription(subscriptionId: string, update: SubscriptionUpdate): Promise<void> {
    await provided(this.stripe.subscriptions.update(subscriptionId, update));
  }

  async portalUrl(customer: string, returnUrl: string): Promise<string> {
    return (await provided(this.stripe.billingPortal.sessions.create({ customer, return_url: returnUrl }))).url;
  }

  /** The event a webhook delivery carries, or undefined when its signature does not verify. */
  verifiedEvent(payload: Buffer, signature: string, secret: string): ProviderEvent | undefined {
    try {
      return this.stripe.webhooks.constructEvent(payload, signature, secret);
    } catch {
      return undefined;
    }
  }
}

/**
 * The payment provider, or none when no secret key is configured (the self-serve routes then
 * answer 503 `stripe_disabled`). `apiBase` points it elsewhere (stripe-mock in tests).
 */
export function paymentProvider(secretKey: string, apiBase: string): PaymentProvider | undefined {
  if (!secretKey) return undefined;
  if (!apiBase) return new PaymentProvider(new Stripe(secretKey, { maxNetworkRetries: 2 }));
  const base = new URL(apiBase);
  return new PaymentProvider(
    new Stripe(secretKey, {
      host: base.hostname,
      port: Number(base.port) || (base.protocol === 'https:' ? 443 : 80),
      protocol: base.protocol === 'https:' ? 'https' : 'http',
      maxNetworkRetries: 2,
    }),
  );
}
