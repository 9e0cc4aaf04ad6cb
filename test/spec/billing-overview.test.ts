import { api, untilSettled } from '../e2e/api';
import { newTeam } from '../e2e/teams';
import { mode, startRde, type RunningRde } from '../e2e/harness';

jest.setTimeout(180_000);

/** Spec "Billing": GET /api/v2/billing/overview and /api/v2/billing/auto-top-up (any member). */
describe(`billing overview (${mode})`, () => {
  let rde: RunningRde;

  beforeAll(async () => {
    rde = await startRde({}, mode, { shared: true });
  });

  afterAll(async () => {
    await rde?.stop();
  });

  const team = () => newTeam(rde, 'ov');

  test('a new Free workspace: its grant, no spend, no caps, Free buckets, a 30-day usage series', async () => {
    const { member } = await team();
    const response = await api(rde, 'GET', '/api/v2/billing/overview', { key: member });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      balance: 100,
      spend_30d: 0,
      spending_cap: null,
      session_spend_cap: null,
      plan: { id: 'free' },
      subscription: null,
      seats: { used: 2, limit: null },
      buckets: { balance: 100, plan_remaining: 100, purchased_credits: 0, purchased_remaining: 0, rollover_cap: null },
    });
    expect(response.body.usage).toHaveLength(30);
    expect(response.body.usage.at(-1)).toEqual({ date: new Date().toISOString().slice(0, 10), credits: 0 });
    expect(response.body.recent_ledger.map((row: { kind: string }) => row.kind)).toEqual(['grant']);
  });

  test('shows the 30-day spend, today’s usage, the caps and the charge on the recent ledger', async () => {
    const { owner, member } = await team();
    await api(rde, 'PUT', '/api/v2/billing/spending-cap', { key: owner, body: { cap: 40 } });
    await api(rde, 'PUT', '/api/v2/billing/session-cap', { key: owner, body: { cap: 2.5 } });
    const call = await api(rde, 'POST', '/tools/verimail/verify', {
      key: member,
      body: { payload: { email: 'a@b.co' } },
    });
    expect(call.status).toBe(200);
    await untilSettled(rde, owner);
    const { body } = await api(rde, 'GET', '/api/v2/billing/overview', { key: member });
    expect(body).toMatchObject({ balance: 99, spend_30d: 1, spending_cap: 40, session_spend_cap: 2.5 });
    expect(body.usage.at(-1).credits).toBe(1);
    expect(body.recent_ledger[0]).toMatchObject({ kind: 'charge', amount: -1, run_id: call.body._meta.run_id });
  });

  test('auto top-up reads as off for any member', async () => {
    const { member } = await team();
    const response = await api(rde, 'GET', '/api/v2/billing/auto-top-up', { key: member });
    expect({ status: response.status, body: response.body }).toEqual({
      status: 200,
      body: { enabled: false, threshold_credits: null, topup_credits: null },
    });
  });

  test('both need a bearer (401) and refuse unknown query parameters (422)', async () => {
    for (const path of ['/api/v2/billing/overview', '/api/v2/billing/auto-top-up']) {
      expect((await api(rde, 'GET', path, { key: null })).status).toBe(401);
      expect((await api(rde, 'GET', `${path}?x=1`)).status).toBe(422);
    }
  });
});
