import { api } from '../e2e/api';
import {
  NO_STRIPE_ENV,
  STRIPE_ENV,
  WEBHOOK,
  deliverSigned,
  stripeDisabledBody,
  subscriptionCreated,
  subscriptionEvent,
  nowSeconds,
} from '../e2e/stripe';
import { newTeam } from '../e2e/teams';
import { mode, startRde, type RunningRde } from '../e2e/harness';

jest.setTimeout(180_000);

const OWNER_ONLY = { detail: 'Only the workspace owner can manage billing.' };

const SELF_SERVE_ROUTES: [string, string, object | undefined][] = [
  ['POST', '/api/v2/billing/subscription/checkout', { plan_id: 'starter', cadence: 'monthly' }],
  ['POST', '/api/v2/billing/subscription/change', { plan_id: 'pro', cadence: 'monthly' }],
  ['POST', '/api/v2/billing/subscription/cancel', { resume: false }],
  ['POST', '/api/v2/billing/portal', undefined],
];

describe(`subscriptions without a payment provider (${mode})`, () => {
  let rde: RunningRde;

  beforeAll(async () => {
    rde = await startRde(NO_STRIPE_ENV);
  });

  afterAll(async () => {
    await rde?.stop();
  });

  test('the four self-serve routes answer 503 stripe_disabled, saying what to configure, to the owner, 403 to a member', async () => {
    const { workspaceId, owner, member } = await newTeam(rde, 'nostripe');
    for (const [method, path, body] of SELF_SERVE_ROUTES) {
      const asOwner = await api(rde, method, path, { key: owner, body });
      expect({ path, status: asOwner.status, body: asOwner.body }).toEqual({
        path,
        status: 503,
        body: stripeDisabledBody(workspaceId),
      });
      const asMember = await api(rde, method, path, { key: member, body });
      expect({ path, status: asMember.status, body: asMember.body }).toEqual({ path, status: 403, body: OWNER_ONLY });
    }
  });

  test('everything else still works: plan state, caps, balance', async () => {
    const { owner } = await newTeam(rde, 'nostripe');
    expect((await api(rde, 'GET', '/api/v2/me', { key: owner })).body).toMatchObject({
      plan: { id: 'free' },
      subscription: null,
    });
    expect((await api(rde, 'PUT', '/api/v2/billing/spending-cap', { key: owner, body: { cap: 10 } })).status).toBe(200);
    expect((await api(rde, 'GET', '/billing/balance', { key: owner })).status).toBe(200);
  });
});

describe(`subscriptions on the payment provider (${mode})`, () => {
  let rde: RunningRde;

  beforeAll(async () => {
    rde = await startRde(STRIPE_ENV);
  });

  afterAll(async () => {
    await rde?.stop();
  });

  const deliver = (event: object, secret?: string) => deliverSigned(rde, JSON.stringify(event), secret);
  const me = async (key: string) => (await api(rde, 'GET', '/api/v2/me', { key })).body;

  /** A workspace whose checkout completed: the provider told us its subscription is active. */
  const subscribed = async (planId = 'starter') => {
    const members = await newTeam(rde, 'sub');
    const checkout = await api(rde, 'POST', '/api/v2/billing/subscription/checkout', {
      key: members.owner,
      body: { plan_id: planId, cadence: 'monthly' },
    });
    expect(checkout.status).toBe(200);
    expect((await deliver(subscriptionCreated(members.workspaceId, planId))).status).toBe(200);
    return members;
  };

  test('checkout returns the hosted page url; a member is refused with the owner-only body', async () => {
    const { owner, member } = await newTeam(rde, 'checkout');
    const response = await api(rde, 'POST', '/api/v2/billing/subscription/checkout', {
      key: owner,
      body: { plan_id: 'essential', cadence: 'annual' },
    });
    expect({ status: response.status, url: response.body.url }).toEqual({
      status: 200,
      url: expect.stringMatching(/^https:\/\//),
    });
    const refused = await api(rde, 'POST', '/api/v2/billing/subscription/checkout', {
      key: member,
      body: { plan_id: 'essential', cadence: 'annual' },
    });
    expect({ status: refused.status, body: refused.body }).toEqual({ status: 403, body: OWNER_ONLY });
  });

  test('checkout and change refuse a plan outside the self-serve set or a bad cadence (422)', async () => {
    const { owner } = await newTeam(rde, 'badplan');
    for (const body of [{ plan_id: 'enterprise', cadence: 'monthly' }, { plan_id: 'pro', cadence: 'weekly' }, {}]) {
      expect((await api(rde, 'POST', '/api/v2/billing/subscription/checkout', { key: owner, body })).status).toBe(422);
      expect((await api(rde, 'POST', '/api/v2/billing/subscription/change', { key: owner, body })).status).toBe(422);
    }
  });

  test('a signed subscription event puts the workspace on its plan; checkout again is 409 already_subscribed', async () => {
    const { owner, member } = await subscribed('starter');
    const state = await me(member);
    expect(state).toMatchObject({
      plan: { id: 'starter' },
      can_buy_credits: true,
      subscription: {
        plan_id: 'starter',
        cadence: 'monthly',
        status: 'active',
        cancel_at_period_end: false,
        pending_plan_id: null,
      },
    });
    const again = await api(rde, 'POST', '/api/v2/billing/subscription/checkout', {
      key: owner,
      body: { plan_id: 'pro', cadence: 'monthly' },
    });
    expect({ status: again.status, error: again.body.error }).toEqual({ status: 409, error: 'already_subscribed' });
  });

  test('a delivery with a bad signature is a 400 and changes nothing', async () => {
    const { workspaceId, owner } = await newTeam(rde, 'badsig');
    const payload = subscriptionEvent(workspaceId, 'customer.subscription.created', { created: nowSeconds() });
    expect((await deliver(payload, 'whsec_someone_else')).status).toBe(400);
    expect((await me(owner)).subscription).toBeNull();
  });

  test('a delivery without a body or a signature is a 400', async () => {
    const response = await api(rde, 'POST', WEBHOOK, { key: null });
    expect(response.status).toBe(400);
  });

  test('change to the current plan is 400 same_plan; on Free it is 404 no_subscription', async () => {
    const { owner } = await subscribed('starter');
    const same = await api(rde, 'POST', '/api/v2/billing/subscription/change', {
      key: owner,
      body: { plan_id: 'starter', cadence: 'monthly' },
    });
    expect({ status: same.status, error: same.body.error }).toEqual({ status: 400, error: 'same_plan' });
    const free = await newTeam(rde, 'free');
    const none = await api(rde, 'POST', '/api/v2/billing/subscription/change', {
      key: free.owner,
      body: { plan_id: 'pro', cadence: 'monthly' },
    });
    expect({ status: none.status, error: none.body.error }).toEqual({ status: 404, error: 'no_subscription' });
    const cancel = await api(rde, 'POST', '/api/v2/billing/subscription/cancel', {
      key: free.owner,
      body: { resume: false },
    });
    expect({ status: cancel.status, error: cancel.body.error }).toEqual({ status: 404, error: 'no_subscription' });
  });

  test('an upgrade applies at once; a downgrade is scheduled for the period end', async () => {
    const { owner } = await subscribed('starter');
    const upgrade = await api(rde, 'POST', '/api/v2/billing/subscription/change', {
      key: owner,
      body: { plan_id: 'pro', cadence: 'monthly' },
    });
    expect(upgrade.status).toBe(200);
    expect(upgrade.body).toMatchObject({
      applied: 'immediate',
      subscription: { plan_id: 'pro', pending_plan_id: null },
    });
    expect((await me(owner)).plan.id).toBe('pro');

    const downgrade = await api(rde, 'POST', '/api/v2/billing/subscription/change', {
      key: owner,
      body: { plan_id: 'starter_1k', cadence: 'monthly' },
    });
    expect(downgrade.body).toMatchObject({
      applied: 'scheduled',
      effective_at: downgrade.body.subscription.current_period_end,
      subscription: { plan_id: 'pro', pending_plan_id: 'starter_1k', pending_cadence: 'monthly' },
    });
    expect((await me(owner)).plan.id).toBe('pro');
  });

  test('cancel sets cancel_at_period_end and clears a pending downgrade; resume clears it', async () => {
    const { owner, member } = await subscribed('pro');
    await api(rde, 'POST', '/api/v2/billing/subscription/change', {
      key: owner,
      body: { plan_id: 'starter', cadence: 'monthly' },
    });
    const cancelled = await api(rde, 'POST', '/api/v2/billing/subscription/cancel', {
      key: owner,
      body: { resume: false },
    });
    expect(cancelled.body.subscription).toMatchObject({
      cancel_at_period_end: true,
      pending_plan_id: null,
      status: 'active',
    });
    const resumed = await api(rde, 'POST', '/api/v2/billing/subscription/cancel', {
      key: owner,
      body: { resume: true },
    });
    expect(resumed.body.subscription).toMatchObject({ cancel_at_period_end: false });
    const refused = await api(rde, 'POST', '/api/v2/billing/subscription/cancel', {
      key: member,
      body: { resume: false },
    });
    expect({ status: refused.status, body: refused.body }).toEqual({ status: 403, body: OWNER_ONLY });
  });

  test('the portal returns the provider portal url to the owner only', async () => {
    const { owner, member } = await subscribed('starter');
    const portal = await api(rde, 'POST', '/api/v2/billing/portal', { key: owner });
    expect({ status: portal.status, url: typeof portal.body.url }).toEqual({ status: 200, url: 'string' });
    const refused = await api(rde, 'POST', '/api/v2/billing/portal', { key: member });
    expect({ status: refused.status, body: refused.body }).toEqual({ status: 403, body: OWNER_ONLY });
  });

  test('a replayed event id is applied once', async () => {
    const { workspaceId, owner } = await subscribed('starter');
    const at = nowSeconds() + 10;
    const pastDue = subscriptionEvent(workspaceId, 'customer.subscription.updated', {
      status: 'past_due',
      created: at,
    });
    await deliver(pastDue);
    // Same second, later delivery: the payment went through.
    await deliver(subscriptionEvent(workspaceId, 'customer.subscription.updated', { status: 'active', created: at }));
    expect((await deliver(pastDue)).status).toBe(200);
    expect((await me(owner)).subscription.status).toBe('active');
  });

  test('an event older than the state already applied is ignored (out-of-order delivery)', async () => {
    const { workspaceId, owner } = await subscribed('starter');
    const at = nowSeconds() + 100;
    await deliver(
      subscriptionEvent(workspaceId, 'customer.subscription.updated', { plan_id: 'essential', created: at }),
    );
    await deliver(
      subscriptionEvent(workspaceId, 'customer.subscription.deleted', { status: 'canceled', created: at - 50 }),
    );
    expect(await me(owner)).toMatchObject({ plan: { id: 'essential' }, subscription: { status: 'active' } });
  });

  test('a deleted subscription puts the workspace back on Free, and checkout is open again', async () => {
    const { workspaceId, owner } = await subscribed('starter');
    await deliver(
      subscriptionEvent(workspaceId, 'customer.subscription.deleted', {
        status: 'canceled',
        created: nowSeconds() + 200,
      }),
    );
    expect(await me(owner)).toMatchObject({ plan: { id: 'free' }, subscription: null, can_buy_credits: false });
    const checkout = await api(rde, 'POST', '/api/v2/billing/subscription/checkout', {
      key: owner,
      body: { plan_id: 'starter', cadence: 'monthly' },
    });
    expect(checkout.status).toBe(200);
  });

  test('a subscription going live grants its monthly credits once, with a deterministic grant id', async () => {
    const { workspaceId, owner } = await subscribed('starter');
    // A later update of the same period grants nothing more.
    await deliver(subscriptionEvent(workspaceId, 'customer.subscription.updated', { created: nowSeconds() + 300 }));
    const balance = (await api(rde, 'GET', '/billing/balance', { key: owner })).body;
    expect(balance.balance).toBe(600);
    const grants = balance.recent_ledger.filter((row: { kind: string }) => row.kind === 'grant');
    expect(
      grants.map((row: { id: string; amount: number }) => [row.id.split(':').slice(0, 3).join(':'), row.amount]),
    ).toEqual([
      [`grant:plan:${workspaceId}`, 500],
      [`grant:free:${workspaceId}`, 100],
    ]);
    const overview = (await api(rde, 'GET', '/api/v2/billing/overview', { key: owner })).body;
    expect(overview.buckets).toMatchObject({ balance: 600, plan_credits: 500, rollover_cap: 1000 });
    expect(overview.subscription.next_grant_at).toEqual(expect.any(String));
  });
});
