import Stripe from 'stripe';
import { api } from './api';
import type { RunningRde } from './harness';

/** The webhook route and the secret the spec tests' RDE verifies deliveries with. */
export const WEBHOOK = '/api/v2/billing/stripe/webhook';
export const WEBHOOK_SECRET = 'whsec_rde_spec_tests';
/** stripe-mock from deploy/backends.sh (its default address when the env is not exported). */
const STRIPE_API_BASE = process.env.RDE_STRIPE_API_BASE ?? 'http://127.0.0.1:12111';

/** RDE's env with payments on stripe-mock, and with payments off. */
export const STRIPE_ENV = {
  RDE_STRIPE_SECRET_KEY: 'sk_test_rdespec',
  RDE_STRIPE_API_BASE: STRIPE_API_BASE,
  RDE_STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
};
export const NO_STRIPE_ENV = { RDE_STRIPE_SECRET_KEY: '', RDE_STRIPE_WEBHOOK_SECRET: '' };

/** The 503 without a payment provider: the spec's `error`, and what to configure instead (decision 0051). */
export function stripeDisabledBody(workspaceId: string) {
  return {
    error: 'stripe_disabled',
    message: 'Payments are not configured on this deployment.',
    detail:
      'Payments are not configured on this deployment: set RDE_STRIPE_SECRET_KEY (and RDE_STRIPE_WEBHOOK_SECRET ' +
      'for webhooks). In development, grant credits instead: ' +
      `rde admin grant-credits --workspace ${workspaceId} --credits <n> --reason "<why>"`,
  };
}

/** The SDK's own helper signs test deliveries exactly as the provider does. */
const signer = new Stripe('sk_test_rdespec', { host: '127.0.0.1' });

/** Posts a provider event to the webhook, signed with `secret`. */
export function deliverSigned(rde: RunningRde, payload: string, secret = WEBHOOK_SECRET) {
  return api(rde, 'POST', WEBHOOK, {
    key: null,
    body: JSON.parse(payload),
    headers: { 'stripe-signature': signer.webhooks.generateTestHeaderString({ payload, secret }) },
  });
}

let eventSeq = 0;
/** A provider event id no earlier delivery used. */
export const providerEventId = () => `evt_${Date.now()}_${++eventSeq}`;
/** Now in the provider's unit, whole seconds. */
export const nowSeconds = () => Math.floor(Date.now() / 1000);

const PERIOD_S = 30 * 24 * 60 * 60;

export interface SubscriptionFields {
  plan_id?: string;
  cadence?: string;
  status?: string;
  cancel_at_period_end?: boolean;
  /** Orders deliveries: RDE applies a subscription event only if it is newer than the last. */
  created: number;
}

/** A subscription event as the provider sends it (sign its JSON to deliver it). */
export function subscriptionEvent(
  workspaceId: string,
  type: string,
  fields: SubscriptionFields,
  id = providerEventId(),
) {
  const start = nowSeconds();
  return {
    id,
    object: 'event',
    type,
    created: fields.created,
    data: {
      object: {
        id: `sub_${workspaceId}`,
        object: 'subscription',
        customer: `cus_${workspaceId}`,
        status: fields.status ?? 'active',
        cancel_at_period_end: fields.cancel_at_period_end ?? false,
        metadata: {
          workspace_id: workspaceId,
          plan_id: fields.plan_id ?? 'starter',
          cadence: fields.cadence ?? 'monthly',
        },
        items: {
          data: [{ id: `si_${workspaceId}`, current_period_start: start, current_period_end: start + PERIOD_S }],
        },
      },
    },
  };
}

/** The provider's report that the workspace's subscription to `planId` (monthly) is active. */
export function subscriptionCreated(workspaceId: string, planId = 'starter') {
  return subscriptionEvent(workspaceId, 'customer.subscription.created', { plan_id: planId, created: nowSeconds() });
}

/** The provider's report that a credit checkout session was paid. */
export function paidCreditCheckout(workspaceId: string, sessionId: string, credits: number, id = providerEventId()) {
  return {
    id,
    object: 'event',
    type: 'checkout.session.completed',
    created: nowSeconds(),
    data: {
      object: {
        id: sessionId,
        object: 'checkout.session',
        mode: 'payment',
        payment_status: 'paid',
        metadata: { purpose: 'credit_purchase', workspace_id: workspaceId, credits: String(credits) },
      },
    },
  };
}
