import { PLAN_CATALOG, planById, type PlanId } from './plans';

/** Subscription rules (decision 0022): pure, no provider calls. Times are ms since the epoch. */

export type Cadence = 'monthly' | 'annual';

export const SELF_SERVE_PLAN_IDS = PLAN_CATALOG.plans.filter((plan) => plan.self_serve).map((plan) => plan.id);

/** The subscription as billing keeps it (collection `subscriptions`, `_id` = workspace id). */
export type SubscriptionDocument = {
  _id: string;
  stripe_customer_id: string;
  stripe_subscription_id: string;
  /** the subscription item whose price a change replaces */
  stripe_item_id: string;
  plan_id: PlanId;
  cadence: Cadence;
  status: string;
  current_period_start: number;
  current_period_end: number;
  cancel_at_period_end: boolean;
  pending_plan_id: PlanId | null;
  pending_cadence: Cadence | null;
  cap_grace_until: number | null;
  /** When the next monthly plan grant is due; null until the subscription first went live. */
  next_grant_at: number | null;
  /**
   * The provider time (seconds) of the state applied last: an event created before it is older
   * than what we know and is ignored (out-of-order delivery).
   */
  event_created: number;
};

/** Statuses after which a workspace is back on Free and may check out again. */
const ENDED = new Set(['canceled', 'incomplete_expired']);

export function isLive(subscription: Pick<SubscriptionDocument, 'status'> | null): boolean {
  return subscription !== null && subscription.status !== '' && !ENDED.has(subscription.status);
}

/** Upgrade = more credits, or the same plan billed annually; the rest are downgrades. */
export function changeKind(
  current: { plan_id: PlanId; cadence: Cadence },
  target: { plan_id: PlanId; cadence: Cadence },
): 'same' | 'upgrade' | 'downgrade' {
  if (current.plan_id === target.plan_id && current.cadence === target.cadence) return 'same';
  const from = planById(current.plan_id);
  const to = planById(target.plan_id);
  if (to.order !== from.order) return to.order > from.order ? 'upgrade' : 'downgrade';
  return target.cadence === 'annual' ? 'upgrade' : 'downgrade';
}

/** The price the provider bills for a plan at a cadence (inline price data; product = plan). */
export function providerPrice(planId: PlanId, cadence: Cadence) {
  const plan = planById(planId);
  const annual = cadence === 'annual';
  return {
    currency: 'usd',
    product: `rde_plan_${planId}`,
    unit_amount: (annual ? plan.annual_amount_cents : plan.monthly_amount_cents) ?? 0,
    recurring: { interval: annual ? ('year' as const) : ('month' as const) },
  };
}

/** Our own metadata on the provider's subscription: how an event finds its workspace and plan. */
export function providerMetadata(workspaceId: string, planId: PlanId, cadence: Cadence): Record<string, string> {
  return { workspace_id: workspaceId, plan_id: planId, cadence };
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** The spec's Subscription record: the sold terms plus its state. */
export function subscriptionView(subscription: SubscriptionDocument) {
  const plan = planById(subscription.plan_id);
  const annual = subscription.cadence === 'annual';
  return {
    plan_id: subscription.plan_id,
    cadence: subscription.cadence,
    amount_cents: (annual ? plan.annual_amount_cents : plan.monthly_amount_cents) ?? 0,
    monthly_credits: plan.monthly_credits ?? 0,
    status: subscription.status,
    current_period_start: iso(subscription.current_period_start),
    current_period_end: iso(subscription.current_period_end),
    cancel_at_period_end: subscription.cancel_at_period_end,
    pending_plan_id: subscription.pending_plan_id,
    pending_cadence: subscription.pending_cadence,
    cap_grace_until: iso(subscription.cap_grace_until),
    next_grant_at: isLive(subscription) ? iso(subscription.next_grant_at) : null,
  };
}

export type SubscriptionView = ReturnType<typeof subscriptionView>;

/** The fields of a provider subscription object we keep; null when it names no known plan. */
export interface ProviderSubscription {
  id: string;
  customer: string | { id: string };
  status: string;
  cancel_at_period_end: boolean;
  metadata: Record<string, string>;
  current_period_start?: number;
  current_period_end?: number;
  items?: { data: { id: string; current_period_start?: number; current_period_end?: number }[] };
}

export function fromProvider(
  object: ProviderSubscription,
): Omit<
  SubscriptionDocument,
  '_id' | 'pending_plan_id' | 'pending_cadence' | 'cap_grace_until' | 'next_grant_at' | 'event_created'
> | null {
  const planId = object.metadata?.plan_id as PlanId;
  const cadence = object.metadata?.cadence === 'annual' ? 'annual' : 'monthly';
  if (!SELF_SERVE_PLAN_IDS.includes(planId)) return null;
  const item = object.items?.data?.[0];
  // Newer API versions keep the period on the item, older ones on the subscription.
  const start = item?.current_period_start ?? object.current_period_start ?? 0;
  const end = item?.current_period_end ?? object.current_period_end ?? 0;
  return {
    stripe_customer_id: typeof object.customer === 'string' ? object.customer : object.customer.id,
    stripe_subscription_id: object.id,
    stripe_item_id: item?.id ?? '',
    plan_id: planId,
    cadence,
    status: object.status,
    current_period_start: start * 1000,
    current_period_end: end * 1000,
    cancel_at_period_end: Boolean(object.cancel_at_period_end),
  };
}

/** The spec's plan state, less seats.used (auth counts members; the gateway adds it). */
export function planStateOf(subscription: SubscriptionDocument | null) {
  const live = subscription && isLive(subscription) ? subscription : null;
  return {
    plan: planById(live?.plan_id ?? 'free'),
    subscription: live && subscriptionView(live),
    // A live subscription may buy credits; there is no beta programme yet.
    can_buy_credits: live !== null,
    beta: false,
    seats: { limit: null },
  };
}

export type PlanState = ReturnType<typeof planStateOf>;
