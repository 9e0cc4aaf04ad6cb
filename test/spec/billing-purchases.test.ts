import { api, untilSettled } from '../e2e/api';
import {
  NO_STRIPE_ENV,
  STRIPE_ENV,
  deliverSigned,
  paidCreditCheckout,
  stripeDisabledBody,
  subscriptionCreated,
} from '../e2e/stripe';
import { newTeam } from '../e2e/teams';
import { mode, startRde, type RunningRde } from '../e2e/harness';

jest.setTimeout(180_000);

const OWNER_ONLY = { detail: 'Only the workspace owner can manage billing.' };
const CHECKOUT = '/api/v2/billing/credits/checkout';

/** Spec "Billing": credit checkout (decision 0040) and the overview's buckets. */
describe(`credit purchases without a payment provider (${mode})`, () => {
  let rde: RunningRde;

  beforeAll(async () => {
    rde = await startRde(NO_STRIPE_ENV);
  });

  afterAll(async () => {
    await rde?.stop();
  });

  test('credit checkout answers 503 stripe_disabled, saying what to configure, to the owner, 403 owner-only to a member', async () => {
    const { workspaceId, owner, member } = await newTeam(rde, 'buynostripe');
    const asOwner = await api(rde, 'POST', CHECKOUT, { key: owner, body: { credits: 500 } });
    expect({ status: asOwner.status, body: asOwner.body }).toEqual({
      status: 503,
      body: stripeDisabledBody(workspaceId),
    });
    const asMember = await api(rde, 'POST', CHECKOUT, { key: member, body: { credits: 500 } });
    expect({ status: asMember.status, body: asMember.body }).toEqual({ status: 403, body: OWNER_ONLY });
  });
});

describe(`credit purchases on the payment provider (${mode})`, () => {
  let rde: RunningRde;

  beforeAll(async () => {
    rde = await startRde(STRIPE_ENV);
  });

  afterAll(async () => {
    await rde?.stop();
  });

  const deliver = (event: object) => deliverSigned(rde, JSON.stringify(event));

  /** A Starter workspace: the provider told us its subscription is active. */
  const subscribed = async () => {
    const team = await newTeam(rde, 'buy');
    expect((await deliver(subscriptionCreated(team.workspaceId))).status).toBe(200);
    return team;
  };
  const overview = async (key: string) => (await api(rde, 'GET', '/api/v2/billing/overview', { key })).body;
  const bucketsOf = async (key: string) => {
    const { balance, plan_remaining, purchased_credits, purchased_remaining } = (await overview(key)).buckets;
    return { balance, plan_remaining, purchased_credits, purchased_remaining };
  };

  test('credit checkout returns the hosted page url for each top-up tier of the plan catalog', async () => {
    const { owner } = await subscribed();
    const { topup_tiers: tiers } = (await api(rde, 'GET', '/api/v2/billing/plans', { key: null })).body;
    expect(tiers.length).toBeGreaterThan(0);
    for (const { credits } of tiers) {
      const response = await api(rde, 'POST', CHECKOUT, { key: owner, body: { credits } });
      expect({ credits, status: response.status, url: response.body.url }).toEqual({
        credits,
        status: 200,
        url: expect.stringMatching(/^https:\/\//),
      });
    }
  });

  test('credit checkout is owner-only (403), needs a plan on Free (402 plan_required topup), and a catalog tier (422)', async () => {
    const free = await newTeam(rde, 'buyfree');
    const member = await api(rde, 'POST', CHECKOUT, { key: free.member, body: { credits: 500 } });
    expect({ status: member.status, body: member.body }).toEqual({ status: 403, body: OWNER_ONLY });
    const onFree = await api(rde, 'POST', CHECKOUT, { key: free.owner, body: { credits: 500 } });
    expect({ status: onFree.status, body: onFree.body }).toMatchObject({
      status: 402,
      body: { error: 'plan_required', feature: 'topup', current_plan: 'free', required_plan: 'starter' },
    });
    const { owner } = await subscribed();
    for (const body of [{}, { credits: 501 }, { credits: 'many' }, { credits: 500, extra: true }]) {
      expect((await api(rde, 'POST', CHECKOUT, { key: owner, body })).status).toBe(422);
    }
  });

  test('a paid checkout grants its credits once, even when the provider delivers it twice', async () => {
    const { workspaceId, owner } = await subscribed();
    const before = await bucketsOf(owner);
    const sessionId = `cs_test_${workspaceId}`;
    const event = paidCreditCheckout(workspaceId, sessionId, 500);
    expect((await deliver(event)).status).toBe(200);
    expect((await deliver(event)).status).toBe(200); // the same event again
    expect((await deliver(paidCreditCheckout(workspaceId, sessionId, 500))).status).toBe(200); // a new event, same session
    expect(await bucketsOf(owner)).toEqual({
      balance: before.balance + 500,
      plan_remaining: before.plan_remaining,
      purchased_credits: 500,
      purchased_remaining: 500,
    });
    const purchases = (await overview(owner)).recent_ledger.filter((row: { kind: string }) => row.kind === 'topup');
    expect(purchases).toEqual([
      expect.objectContaining({ id: `purchase:${sessionId}`, amount: 500, balance_after: before.balance + 500 }),
    ]);
  });

  test('an unpaid checkout session grants nothing', async () => {
    const { workspaceId, owner } = await subscribed();
    const before = await bucketsOf(owner);
    const unpaid = paidCreditCheckout(workspaceId, `cs_unpaid_${workspaceId}`, 500);
    unpaid.data.object.payment_status = 'unpaid';
    expect((await deliver(unpaid)).status).toBe(200);
    expect(await bucketsOf(owner)).toEqual(before);
  });

  test('plan credits are spent before purchased ones', async () => {
    const { workspaceId, owner, member } = await subscribed();
    expect((await deliver(paidCreditCheckout(workspaceId, `cs_spend_${workspaceId}`, 500))).status).toBe(200);
    const before = await bucketsOf(owner);
    const call = await api(rde, 'POST', '/tools/verimail/verify', {
      key: member,
      body: { payload: { email: 'a@b.co' } },
    });
    expect(call.status).toBe(200);
    await untilSettled(rde, owner);
    expect(await bucketsOf(owner)).toEqual({
      balance: before.balance - 1,
      plan_remaining: before.plan_remaining - 1,
      purchased_credits: 500,
      purchased_remaining: 500,
    });
    const { recent_ledger: ledger } = await overview(owner);
    expect(ledger[0]).toMatchObject({ kind: 'charge', amount: -1, run_id: call.body._meta.run_id });
  });
});
