import { errors, httpError, type Caller, type Clock, type Logger } from '@rde/platform';
import type { PaymentProvider } from '../clients/stripe';
import type { PlanId } from '../domain/plans';
import { requireOwner } from '../domain/roles';
import { SELF_SERVE_PLAN_IDS, isLive, type Cadence, type SubscriptionDocument } from '../domain/subscriptions';
import type { SpendCapsRepository } from '../store/caps';
import type { SubscriptionsRepository } from '../store/subscriptions';
import type { CreditBook } from './credit-book';
import type { PlanGrants } from './grants';

export interface SubscriptionOptions {
  webhookSecret: string;
  returnUrl: string;
}

/** What the subscription use cases share (decision 0022): the provider, the stores, the clock. */
export interface SubscriptionContext {
  readonly provider: PaymentProvider | undefined;
  readonly subscriptions: SubscriptionsRepository;
  readonly caps: SpendCapsRepository;
  readonly book: CreditBook;
  readonly grants: PlanGrants;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly options: SubscriptionOptions;
}

/**
 * The spec's 503 body, plus what to configure: a newcomer meets it first in development, where
 * credits come from `rde admin grant-credits` instead (decision 0051).
 */
export const stripeDisabled = (workspaceId = '<workspace id>') =>
  httpError(503, {
    error: 'stripe_disabled',
    message: 'Payments are not configured on this deployment.',
    detail:
      'Payments are not configured on this deployment: set RDE_STRIPE_SECRET_KEY (and RDE_STRIPE_WEBHOOK_SECRET ' +
      'for webhooks). In development, grant credits instead: ' +
      `rde admin grant-credits --workspace ${workspaceId} --credits <n> --reason "<why>"`,
  });

/** Owner-only first, then the 503 when payments are off. */
export function enabledProvider(context: SubscriptionContext, caller: Caller): PaymentProvider {
  requireOwner(caller);
  if (!context.provider) throw stripeDisabled(caller.workspaceId);
  return context.provider;
}

export async function liveSubscription(context: SubscriptionContext, workspaceId: string) {
  const current = await context.subscriptions.find(workspaceId);
  if (!current || !isLive(current)) {
    throw httpError(404, { error: 'no_subscription', detail: 'This workspace has no subscription (it is on Free).' });
  }
  return current;
}

/** The workspace's customer on the provider, created on first need. */
export async function customerOf(
  context: SubscriptionContext,
  provider: PaymentProvider,
  workspaceId: string,
  current: SubscriptionDocument | null,
): Promise<string> {
  if (current?.stripe_customer_id) return current.stripe_customer_id;
  const created = await provider.createCustomer(workspaceId);
  await context.subscriptions.saveCustomer(workspaceId, created);
  return created;
}

/** Our own changes count as state at this moment: a provider event created before it is older. */
export function stamp(clock: Clock) {
  return { event_created: Math.floor(clock.now() / 1000) };
}

export function selfServe(planId: string, cadence: string): { plan_id: PlanId; cadence: Cadence } {
  if (!SELF_SERVE_PLAN_IDS.includes(planId as PlanId) || (cadence !== 'monthly' && cadence !== 'annual')) {
    throw errors.badRequest({ detail: 'plan_id must be a self-serve plan and cadence monthly or annual' });
  }
  return { plan_id: planId as PlanId, cadence };
}
