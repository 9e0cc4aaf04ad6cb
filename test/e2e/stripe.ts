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
