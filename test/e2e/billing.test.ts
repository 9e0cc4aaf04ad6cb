import { api, NOT_AUTHENTICATED } from './api';
import { mode, startRde, waitUntil, type RunningRde } from './harness';

jest.setTimeout(120_000);

const PLAN_IDS = ['free', 'starter', 'starter_1k', 'essential', 'essential_3k', 'pro', 'pro_7500', 'enterprise'];
const PLAN_FIELDS = [
  'id',
  'name',
  'order',
  'self_serve',
  'monthly_usd',
  'monthly_amount_cents',
  'annual_amount_cents',
  'annual_monthly_usd',
  'annual_total_usd',
  'monthly_credits',
  'seat_limit',
  'rollover_cap_multiplier',
  'features',
];
const CSV_HEADER = 'id,created_at,kind,amount,balance_after,description,run_id,user_id,session_id,workflow_run_id';

describe(`billing reads (${mode})`, () => {
  let rde: RunningRde;

  beforeAll(async () => {
    rde = await startRde({}, mode, { shared: true });
  });

  afterAll(async () => {
    await rde?.stop();
  });

  const admin = async (...args: string[]) => JSON.parse(await rde.admin(args)) as Record<string, string>;

  describe('GET /api/v2/billing/plans', () => {
    test('is public and lists every plan with every field of the spec', async () => {
      const response = await api(rde, 'GET', '/api/v2/billing/plans', { key: null });
      expect(response.status).toBe(200);
      const catalog = response.body;
      expect(Object.keys(catalog).sort()).toEqual(
        ['annual_discount', 'downgrade_grace_months', 'plans', 'topup_requires_plan', 'topup_tiers'].sort(),
      );
      expect(catalog.plans.map((plan: { id: string }) => plan.id)).toEqual(PLAN_IDS);
      for (const plan of catalog.plans) {
        expect(Object.keys(plan).sort()).toEqual([...PLAN_FIELDS].sort());
        expect(plan.seat_limit).toBeNull();
      }
      expect(catalog.topup_requires_plan).toBe(true);
      expect(catalog.topup_tiers.length).toBeGreaterThan(0);
    });

    test('self-serve prices are whole cents, and the annual price is twelve months less the annual discount', async () => {
      const { plans, annual_discount: discount } = (await api(rde, 'GET', '/api/v2/billing/plans', { key: null })).body;
      const selfServe = plans.filter((plan: { self_serve: boolean }) => plan.self_serve);
      expect(selfServe.map((plan: { id: string }) => plan.id)).toEqual(PLAN_IDS.slice(1, -1));
      for (const plan of selfServe) {
        expect(Number.isInteger(plan.monthly_amount_cents)).toBe(true);
        expect(plan.monthly_usd * 100).toBeCloseTo(plan.monthly_amount_cents, 6);
        expect(plan.annual_amount_cents).toBe(Math.round(plan.monthly_amount_cents * 12 * (1 - discount)));
        expect(plan.annual_total_usd * 100).toBeCloseTo(plan.annual_amount_cents, 6);
        expect(plan.annual_monthly_usd * 12).toBeCloseTo(plan.annual_total_usd, 6);
        expect(plan.monthly_credits).toBeGreaterThan(0);
      }
    });

    test('an unknown query parameter is a 422 with the validation detail list', async () => {
      const response = await api(rde, 'GET', '/api/v2/billing/plans?color=red', { key: null });
      expect(response.status).toBe(422);
      expect(response.body.detail).toEqual([
        expect.objectContaining({ loc: ['query', 'color'], type: 'extra_forbidden' }),
      ]);
    });
  });

  describe('the dev workspace', () => {
    test('GET /api/v2/me shows the workspace, the owner and the Free plan state', async () => {
      const response = await api(rde, 'GET', '/api/v2/me');
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        workspace: {
          id: expect.any(String),
          name: expect.any(String),
          owner_user_id: response.body.user.id,
          created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        },
        user: { id: expect.any(String), email: expect.stringContaining('@') },
        role: 'owner',
        plan: expect.objectContaining({ id: 'free', name: 'Free', seat_limit: null }),
        subscription: null,
        can_buy_credits: false,
        beta: false,
        seats: { used: 1, limit: null },
      });
    });

    test('GET /billing/balance shows the free grant, settled, as the one ledger entry', async () => {
      const me = (await api(rde, 'GET', '/api/v2/me')).body;
      const response = await api(rde, 'GET', '/billing/balance');
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        balance: 100,
        reserved: 0,
        available: 100,
        recent_ledger: [
          {
            id: `grant:free:${me.workspace.id}`,
            created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
            kind: 'grant',
            amount: 100,
            balance_after: 100,
            description: 'Free plan credit grant',
            run_id: null,
            user_id: null,
            session_id: null,
            workflow_run_id: null,
          },
        ],
        plan: expect.objectContaining({ id: 'free' }),
        subscription: null,
        can_buy_credits: false,
        beta: false,
        seats: { used: 1, limit: null },
        _meta: { balance: 100, reserved: 0, settled: true },
      });
    });

    test('GET /api/v2/billing/ledger.csv is the ledger as CSV with a header row', async () => {
      const me = (await api(rde, 'GET', '/api/v2/me')).body;
      const response = await api(rde, 'GET', '/api/v2/billing/ledger.csv');
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/csv/);
      expect(response.headers.get('content-disposition')).toBe('attachment; filename="ledger.csv"');
      const [header, ...rows] = response.text.trimEnd().split('\n');
      expect(header).toBe(CSV_HEADER);
      expect(rows).toEqual([
        expect.stringMatching(
          new RegExp(`^grant:free:${me.workspace.id},\\d{4}-[^,]+Z,grant,100,100,Free plan credit grant,,,,$`),
        ),
      ]);
    });
  });

  describe('another workspace', () => {
    test('a member reads its own billing, never the dev workspace’s', async () => {
      const owner = await admin('create-workspace', '--email', 'billing.owner@example.com', '--name', 'Billing Team');
      const member = await admin(
        'add-member',
        '--workspace',
        owner.workspace_id,
        '--email',
        'billing.member@example.com',
      );
      const me = await api(rde, 'GET', '/api/v2/me', { key: member.key });
      expect(me.body).toMatchObject({
        workspace: { id: owner.workspace_id },
        role: 'member',
        seats: { used: 2, limit: null },
      });
      const balance = await api(rde, 'GET', '/billing/balance', { key: member.key });
      expect(balance.body).toMatchObject({ balance: 100, _meta: { settled: true } });
      expect(balance.body.recent_ledger.map((entry: { id: string }) => entry.id)).toEqual([
        `grant:free:${owner.workspace_id}`,
      ]);
      const csv = await api(rde, 'GET', '/api/v2/billing/ledger.csv', { key: member.key });
      expect(
        csv.text
          .trimEnd()
          .split('\n')
          .slice(1)
          .map((row) => row.split(',')[0]),
      ).toEqual([`grant:free:${owner.workspace_id}`]);
    });
  });

  describe('a paid call', () => {
    test('is held, then settled: one charge on the ledger and the balance moved once', async () => {
      const owner = await admin('create-workspace', '--email', 'billing.payer@example.com', '--name', 'Payer');
      const key = owner.key;
      const call = await api(rde, 'POST', '/tools/pplgraph/search', {
        key,
        body: { payload: { query: { job_title: ['Software Engineer'] }, size: 3 } },
      });
      // Nothing else held: the response's money is final, whether or not billing applied it yet (decision 0079).
      expect({ status: call.status, body: call.body }).toEqual({
        status: 200,
        body: expect.objectContaining({ _meta: expect.objectContaining({ settled: true }) }),
      });
      const { credits_charged: charged, run_id: runId } = call.body._meta;
      expect(charged).toBeGreaterThan(0);

      const balance = async () => (await api(rde, 'GET', '/billing/balance', { key })).body;
      await waitUntil(async () => (await balance())._meta.settled === true, 20_000);
      const settled = await balance();
      expect(settled).toMatchObject({
        balance: 100 - charged,
        reserved: 0,
        available: 100 - charged,
        _meta: { balance: 100 - charged, reserved: 0, settled: true },
      });
      expect(settled.recent_ledger).toEqual([
        expect.objectContaining({
          kind: 'charge',
          amount: -charged,
          balance_after: 100 - charged,
          run_id: runId,
          user_id: owner.user_id,
        }),
        expect.objectContaining({ kind: 'grant', amount: 100, balance_after: 100 }),
      ]);
      const csv = await api(rde, 'GET', '/api/v2/billing/ledger.csv', { key });
      const rows = csv.text.trimEnd().split('\n').slice(1);
      expect(rows).toHaveLength(2);
      expect(rows[1].split(',').slice(2, 5)).toEqual(['charge', String(-charged), String(100 - charged)]);
    });
  });

  describe('authentication', () => {
    test.each(['/api/v2/me', '/billing/balance', '/api/v2/billing/ledger.csv'])(
      '%s without a key is 401',
      async (path) => {
        const response = await api(rde, 'GET', path, { key: null });
        expect(response.status).toBe(401);
        expect(response.body).toEqual(NOT_AUTHENTICATED.missing);
      },
    );
  });

  test('the OpenAPI document lists the billing routes', async () => {
    const document = (await api(rde, 'GET', '/openapi.json', { key: null })).body;
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining(['/api/v2/billing/plans', '/api/v2/me', '/billing/balance', '/api/v2/billing/ledger.csv']),
    );
  });
});
