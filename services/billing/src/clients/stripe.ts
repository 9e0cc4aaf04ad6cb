import Stripe from 'stripe';

/**
 * The payment provider's official SDK, or none when no secret key is configured (the self-serve
 * routes then answer 503 `stripe_disabled`). `apiBase` points it elsewhere (stripe-mock in tests).
 */
export function paymentProvider(secretKey: string, apiBase: string): Stripe | undefined {
  if (!secretKey) return undefined;
  if (!apiBase) return new Stripe(secretKey, { maxNetworkRetries: 2 });
  const base = new URL(apiBase);
  return new Stripe(secretKey, {
    host: base.hostname,
    port: Number(base.port) || (base.protocol === 'https:' ? 443 : 80),
    protocol: base.protocol === 'https:' ? 'https' : 'http',
    maxNetworkRetries: 2,
  });
}
