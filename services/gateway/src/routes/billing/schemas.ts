/** JSON schemas of the billing routes: validation, response serialization and the OpenAPI document. */
import { publicSchemas } from '@rde/proto';
import { allRequired, strictBody } from '../../contract';
import { memberRow } from '../members/schemas';

const nullableNumber = { type: ['number', 'null'] } as const;
const nullableString = { type: ['string', 'null'] } as const;

/** Routes that take no parameters refuse unknown ones (422), like every route that declares its inputs. */
export const noQuery = { type: 'object', properties: {}, additionalProperties: false } as const;

export const planSchema = allRequired({
  id: { type: 'string' },
  name: { type: 'string' },
  order: { type: 'integer' },
  self_serve: { type: 'boolean' },
  monthly_usd: nullableNumber,
  monthly_amount_cents: { type: ['integer', 'null'] },
  annual_amount_cents: { type: ['integer', 'null'] },
  annual_monthly_usd: nullableNumber,
  annual_total_usd: nullableNumber,
  monthly_credits: nullableNumber,
  seat_limit: { type: ['integer', 'null'], description: 'null = unlimited members' },
  rollover_cap_multiplier: nullableNumber,
  features: { type: 'array', items: { type: 'string' } },
});

export const planCatalogSchema = allRequired({
  plans: { type: 'array', items: planSchema },
  annual_discount: { type: 'number', description: 'fraction off twelve monthly payments' },
  downgrade_grace_months: { type: 'integer' },
  topup_tiers: {
    type: 'array',
    items: allRequired({ credits: { type: 'number' }, amount_cents: { type: 'integer' }, usd: { type: 'number' } }),
  },
  topup_requires_plan: { type: 'boolean' },
});

const nullableDate = { type: ['string', 'null'], format: 'date-time' } as const;

/** The spec's Subscription record: the sold terms plus its state (decision 0022). */
export const subscriptionSchema = allRequired({
  plan_id: { type: 'string' },
  cadence: { type: 'string', enum: ['monthly', 'annual'] },
  amount_cents: { type: 'integer', description: 'price per billing period' },
  monthly_credits: { type: 'number' },
  status: { type: 'string', description: "the payment provider's subscription status" },
  current_period_start: nullableDate,
  current_period_end: nullableDate,
  cancel_at_period_end: { type: 'boolean' },
  pending_plan_id: { ...nullableString, description: 'a scheduled downgrade' },
  pending_cadence: nullableString,
  cap_grace_until: nullableDate,
  next_grant_at: nullableDate,
});

/** The spec's plan state, as /api/v2/me and /billing/balance show it at their top level. */
const planStateProperties = {
  plan: planSchema,
  subscription: { anyOf: [{ type: 'null' }, subscriptionSchema], description: 'null on Free' },
  can_buy_credits: { type: 'boolean' },
  beta: { type: 'boolean' },
  seats: allRequired({
    used: { type: 'integer' },
    limit: { type: ['integer', 'null'], description: 'null = unlimited' },
  }),
} as const;

export const meSchema = allRequired({
  workspace: allRequired({
    id: { type: 'string' },
    name: { type: 'string' },
    owner_user_id: { type: 'string' },
    created_at: { type: 'string', format: 'date-time' },
  }),
  user: allRequired({ id: { type: 'string' }, email: { type: 'string' } }),
  role: { type: 'string', enum: ['owner', 'member'] },
  ...planStateProperties,
});

export const ledgerEntrySchema = allRequired({
  id: { type: 'string' },
  created_at: { type: 'string', format: 'date-time' },
  kind: { type: 'string', enum: ['grant', 'charge', 'topup', 'correction'] },
  amount: { type: 'number', description: 'credits; negative for charges' },
  balance_after: { ...nullableNumber, description: 'null while the entry is being applied' },
  description: { type: 'string' },
  run_id: nullableString,
  user_id: nullableString,
  session_id: nullableString,
  workflow_run_id: { ...nullableString, description: 'the workflow run a charge was made for' },
});

export const balanceSchema = allRequired({
  balance: { type: 'number', description: 'credits owned, settled charges deducted' },
  reserved: { type: 'number', description: 'credits held for in-flight work' },
  available: { type: 'number', description: 'balance − reserved' },
  recent_ledger: { type: 'array', items: ledgerEntrySchema, description: 'newest first' },
  ...planStateProperties,
  _meta: allRequired({
    balance: { type: 'number', description: 'balance − reserved while work is in flight' },
    reserved: { type: 'number' },
    settled: { type: 'boolean', description: 'false while any hold is open' },
  }),
});

/** Error answers a route declares beyond the shared ones (401, 422, 5xx: the contract adds them). */
export { errorResponses as errorsOf } from '../../contract';

/** The largest cap: $1 billion (or a billion credits) keeps its cents and millicredits exact. */
export const MAX_CAP = 1_000_000_000;
/** A cap "above 0" (spec): one below a cent or a millicredit is rounded up to one (caps.ts). */
const positiveNumber = (description: string) =>
  ({ type: 'number', exclusiveMinimum: 0, maximum: MAX_CAP, description }) as const;

export const spendingCapBody = strictBody({ cap: positiveNumber('credits over a rolling 30 days') });

export const sessionCapBody = strictBody({ cap: positiveNumber('USD, rounded to the cent') });

export const memberCapBody = strictBody({ cap_usd: positiveNumber('USD over a rolling 30 days, rounded to the cent') });

export const capResult = allRequired({ cap: nullableNumber });

export const memberCapResult = allRequired({ user_id: { type: 'string' }, cap_usd: nullableNumber });

export const memberCapList = allRequired({ members: { type: 'array', items: memberRow } });

const planChoice = {
  plan_id: { type: 'string', enum: ['starter', 'starter_1k', 'essential', 'essential_3k', 'pro', 'pro_7500'] },
  cadence: { type: 'string', enum: ['monthly', 'annual'] },
} as const;

export const planChoiceBody = strictBody(planChoice);

/** A credit purchase names one of the catalog's top-up tiers (shared with billing, decision 0037). */
export const { creditCheckoutBody } = publicSchemas;

export const cancelBody = strictBody({ resume: { type: 'boolean', default: false } });

export const urlResult = allRequired({ url: { type: 'string' } });

export const changeResult = {
  type: 'object',
  properties: {
    applied: { type: 'string', enum: ['immediate', 'scheduled'] },
    effective_at: { type: 'string', format: 'date-time', description: 'scheduled only' },
    subscription: subscriptionSchema,
  },
  required: ['applied', 'subscription'],
} as const;

export const subscriptionResult = allRequired({ subscription: subscriptionSchema });

export const overviewSchema = allRequired({
  balance: { type: 'number' },
  reserved: { type: 'number' },
  available: { type: 'number' },
  spend_30d: { type: 'number', description: 'credits held or spent over the rolling 30 days' },
  spending_cap: { ...nullableNumber, description: 'workspace cap in credits; null = none' },
  usage: {
    type: 'array',
    description: 'credits per UTC day, oldest first, 30 days',
    items: allRequired({ date: { type: 'string', format: 'date' }, credits: { type: 'number' } }),
  },
  session_spend_cap: { ...nullableNumber, description: 'USD default of new sessions; null if unset' },
  buckets: allRequired({
    balance: { type: 'number' },
    plan_credits: { type: 'number' },
    purchased_credits: { type: 'number' },
    plan_remaining: { type: 'number' },
    purchased_remaining: { type: 'number' },
    rollover_cap: { ...nullableNumber, description: 'null on Free and Enterprise' },
  }),
  recent_ledger: { type: 'array', items: ledgerEntrySchema, description: 'newest first' },
  ...planStateProperties,
});

export const autoTopUpSchema = allRequired({
  enabled: { type: 'boolean' },
  threshold_credits: nullableNumber,
  topup_credits: nullableNumber,
});
