import { api, sandboxCounters } from '../e2e/api';
import { mode, startRde, waitUntil, type RunningRde } from '../e2e/harness';

jest.setTimeout(120_000);

/** The common metering block `_meta` on a paid tool call. */
describe(`spec: _meta (${mode})`, () => {
  let rde: RunningRde;

  beforeAll(async () => {
    rde = await startRde({ RDE_SANDBOX_LATENCY_SCALE: '0' });
  });

  afterAll(async () => {
    await rde?.stop();
  });

  const balance = async () => (await api(rde, 'GET', '/billing/balance')).body;
  const settledBalance = async () => {
    await waitUntil(async () => (await balance())._meta.settled === true, 20_000);
    return balance();
  };
  const requestsTo = async (vendor: string, endpoint: string) =>
    (await sandboxCounters(rde))[vendor]?.[endpoint]?.requests ?? 0;
  const ledgerOf = (body: { recent_ledger: { run_id: string; amount: number }[] }, runId: string) =>
    body.recent_ledger.filter((entry) => entry.run_id === runId);

  test("reserved counts the workspace's other open holds, never the call's own released hold", async () => {
    const before = await settledBalance();
    const vendorBefore = await requestsTo('pplgraph', 'search');

    const response = await api(rde, 'POST', '/tools/pplgraph/search', {
      body: { payload: { query: { job_title: ['Software Engineer'] }, size: 1 } },
    });

    expect(response.status).toBe(200);
    const meta = response.body._meta;
    expect(meta).toMatchObject({ credits_charged: 1, reserved: 0, settled: false, balance: before.balance - 1 });
    expect(meta.balance + meta.reserved).toBeLessThanOrEqual(before.balance);
    expect(await requestsTo('pplgraph', 'search')).toBe(vendorBefore + 1);
    const after = await settledBalance();
    expect(after.balance).toBe(before.balance - 1);
    expect(after.reserved).toBe(0);
    expect(ledgerOf(after, meta.run_id)).toEqual([expect.objectContaining({ kind: 'charge', amount: -1 })]);
  });

  test('a call whose charges are all zero says settled: true, and balance + reserved stays within the credits', async () => {
    const before = await settledBalance();
    const vendorBefore = await requestsTo('mailfinder', 'find');

    const response = await api(rde, 'POST', '/tools/mailfinder/find', {
      body: { payload: { first_name: 'Nobody', last_name: 'Atall', domain: 'no-such-company.example' } },
    });

    expect(response.status).toBe(200);
    const meta = response.body._meta;
    expect(meta).toMatchObject({ credits_charged: 0, reserved: 0, settled: true, balance: before.balance });
    expect(meta.balance + meta.reserved).toBeLessThanOrEqual(before.balance);
    expect(await requestsTo('mailfinder', 'find')).toBe(vendorBefore + 1);
    const after = await settledBalance();
    expect(after.balance).toBe(before.balance);
    expect(ledgerOf(after, meta.run_id)).toEqual([]);
  });
});
