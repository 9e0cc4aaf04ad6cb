import { PLAN_CATALOG, annualAmountCents } from '../src/domain/plans';

describe('plan catalog', () => {
  const selfServe = PLAN_CATALOG.plans.filter((plan) => plan.self_serve);

  test('offers exactly the spec’s self-serve plan ids, between Free and Enterprise', () => {
    expect(PLAN_CATALOG.plans.map((plan) => plan.id)).toEqual([
      'free',
      'starter',
      'starter_1k',
      'essential',
      'essential_3k',
      'pro',
      'pro_7500',
      'enterprise',
    ]);
    expect(PLAN_CATALOG.plans.map((plan) => plan.order)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(PLAN_CATALOG.plans.every((plan) => plan.seat_limit === null)).toBe(true);
  });

  test('annual prices are whole cents: twelve months less 20%', () => {
    for (const plan of selfServe) {
      expect(plan.annual_amount_cents).toBe((plan.monthly_amount_cents! * 12 * 80) / 100);
      expect(Number.isInteger(plan.annual_amount_cents! / 12)).toBe(true);
    }
    expect(annualAmountCents(4_900)).toBe(47_040);
  });

  test('a monthly price with no whole-cent annual price is refused, never rounded', () => {
    expect(() => annualAmountCents(4_999)).toThrow(/no whole-cent annual price/);
  });

  test('bigger plans cost less per credit, and top-ups cost more than any plan', () => {
    const centsPerCredit = selfServe.map((plan) => plan.monthly_amount_cents! / plan.monthly_credits!);
    expect([...centsPerCredit].sort((a, b) => b - a)).toEqual(centsPerCredit);
    for (const tier of PLAN_CATALOG.topup_tiers) {
      expect(tier.amount_cents / tier.credits).toBeGreaterThan(Math.max(...centsPerCredit));
    }
  });

  test('own provider keys need Essential or above', () => {
    const withByok = PLAN_CATALOG.plans
      .filter((plan) => plan.features.includes('byok_managed_data'))
      .map((plan) => plan.id);
    expect(withByok).toEqual(['essential', 'essential_3k', 'pro', 'pro_7500', 'enterprise']);
  });
});
