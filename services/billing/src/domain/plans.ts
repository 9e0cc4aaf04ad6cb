/**
 * The plan catalog (decision 0006). Prices are integers of cents and credits are whole credits;
 * the USD numbers of the public JSON are derived from the cents, never stored apart.
 */
import { publicSchemas } from '@rde/proto';

export type PlanId =
  'free' | 'starter' | 'starter_1k' | 'essential' | 'essential_3k' | 'pro' | 'pro_7500' | 'enterprise';

/** The spec's Plan record, as the public JSON shows it. */
export interface Plan {
  id: PlanId;
  name: string;
  order: number;
  self_serve: boolean;
  monthly_usd: number | null;
  monthly_amount_cents: number | null;
  annual_amount_cents: number | null;
  annual_monthly_usd: number | null;
  annual_total_usd: number | null;
  monthly_credits: number | null;
  /** null = unlimited members; every plan is unlimited. */
  seat_limit: null;
  /** Unused plan credits roll over up to this many months' grant; null where nothing rolls over. */
  rollover_cap_multiplier: number | null;
  features: string[];
}

export interface TopupTier {
  credits: number;
  amount_cents: number;
  usd: number;
}

export interface PlanCatalog {
  plans: Plan[];
  annual_discount: number;
  downgrade_grace_months: number;
  topup_tiers: TopupTier[];
  topup_requires_plan: boolean;
}

/** A new workspace's one-time grant (decision 0006): enough to try every kind of call. */
export const FREE_GRANT_CREDITS = 100;

const ANNUAL_DISCOUNT_PERCENT = 20;
const ROLLOVER_CAP_MULTIPLIER = 2;

const BASE_FEATURES = ['people_search', 'enrichment', 'qualify', 'datasets', 'workflows', 'mcp'];
const PAID_FEATURES = [...BASE_FEATURES, 'topup', 'rollover'];
const ESSENTIAL_FEATURES = [...PAID_FEATURES, 'byok_managed_data'];
const PRO_FEATURES = [...ESSENTIAL_FEATURES, 'priority_support'];
const ENTERPRISE_FEATURES = [...PRO_FEATURES, 'custom_contract', 'dedicated_support'];

/** A self-serve plan: its monthly price in cents and its monthly credits. */
function selfServe(id: PlanId, name: string, monthlyCents: number, monthlyCredits: number, features: string[]) {
  return { id, name, monthlyCents, monthlyCredits, features };
}

const SELF_SERVE = [
  selfServe('starter', 'Starter', 4_900, 500, PAID_FEATURES),
  selfServe('starter_1k', 'Starter 1K', 8_900, 1_000, PAID_FEATURES),
  selfServe('essential', 'Essential', 15_900, 2_000, ESSENTIAL_FEATURES),
  selfServe('essential_3k', 'Essential 3K', 21_900, 3_000, ESSENTIAL_FEATURES),
  selfServe('pro', 'Pro', 32_900, 5_000, PRO_FEATURES),
  selfServe('pro_7500', 'Pro 7.5K', 44_900, 7_500, PRO_FEATURES),
];

/** Cents → dollars; exact because every amount here is a whole number of cents. */
const usd = (cents: number) => cents / 100;

/** The annual price: twelve months less the annual discount, in whole cents (checked, never rounded). */
export function annualAmountCents(monthlyCents: number): number {
  const cents = (monthlyCents * 12 * (100 - ANNUAL_DISCOUNT_PERCENT)) / 100;
  if (!Number.isInteger(cents) || !Number.isInteger(cents / 12)) {
    throw new Error(`a monthly price of ${monthlyCents} cents has no whole-cent annual price`);
  }
  return cents;
}

function paidPlan(spec: (typeof SELF_SERVE)[number], order: number): Plan {
  const annual = annualAmountCents(spec.monthlyCents);
  return {
    id: spec.id,
    name: spec.name,
    order,
    self_serve: true,
    monthly_usd: usd(spec.monthlyCents),
    monthly_amount_cents: spec.monthlyCents,
    annual_amount_cents: annual,
    annual_monthly_usd: usd(annual / 12),
    annual_total_usd: usd(annual),
    monthly_credits: spec.monthlyCredits,
    seat_limit: null,
    rollover_cap_multiplier: ROLLOVER_CAP_MULTIPLIER,
    features: spec.features,
  };
}

const FREE: Plan = {
  id: 'free',
  name: 'Free',
  order: 0,
  self_serve: false,
  monthly_usd: 0,
  monthly_amount_cents: 0,
  annual_amount_cents: 0,
  annual_monthly_usd: 0,
  annual_total_usd: 0,
  // Free gets the one-time grant only, never a monthly one.
  monthly_credits: 0,
  seat_limit: null,
  rollover_cap_multiplier: null,
  features: BASE_FEATURES,
};

/** Custom contracts: no list price, credits or rollover in the catalog. */
const ENTERPRISE: Plan = {
  id: 'enterprise',
  name: 'Enterprise',
  order: SELF_SERVE.length + 1,
  self_serve: false,
  monthly_usd: null,
  monthly_amount_cents: null,
  annual_amount_cents: null,
  annual_monthly_usd: null,
  annual_total_usd: null,
  monthly_credits: null,
  seat_limit: null,
  rollover_cap_multiplier: null,
  features: ENTERPRISE_FEATURES,
};

/** Each top-up tier's price; dearer per credit than any plan, so a plan stays the better deal. */
const TOPUP_AMOUNT_CENTS: Record<publicSchemas.TopupTierCredits, number> = { 500: 6_000, 2_000: 22_000, 5_000: 50_000 };

function topup(credits: publicSchemas.TopupTierCredits): TopupTier {
  const amountCents = TOPUP_AMOUNT_CENTS[credits];
  return { credits, amount_cents: amountCents, usd: usd(amountCents) };
}

export const PLAN_CATALOG: PlanCatalog = {
  plans: [FREE, ...SELF_SERVE.map((spec, index) => paidPlan(spec, index + 1)), ENTERPRISE],
  annual_discount: ANNUAL_DISCOUNT_PERCENT / 100,
  downgrade_grace_months: 1,
  // The tiers are the public request contract's, so the checkout route accepts exactly these.
  topup_tiers: publicSchemas.TOPUP_TIER_CREDITS.map(topup),
  topup_requires_plan: true,
};

export function planById(id: PlanId): Plan {
  const plan = PLAN_CATALOG.plans.find((candidate) => candidate.id === id);
  if (!plan) throw new Error(`no plan ${id} in the catalog`);
  return plan;
}
