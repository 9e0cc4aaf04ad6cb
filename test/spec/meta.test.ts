import { api, sandboxCounters } from '../e2e/api';
import { mode, startRde, waitUntil, type RunningRde } from '../e2e/harness';
import { enrichmentSupport } from './enrichment-support';

jest.setTimeout(120_000);

/** The common metering block `_meta` on a paid tool call. */
describe(`spec: _meta (${mode})`, () => {
  let rde: RunningRde;

  beforeAll(async () => {
    rde = await startRde({ RDE_SANDBOX_LATENCY_SCALE: '0' }, mode, { shared: true });
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
  const { workspace, peopleRows, knobs, resetKnobs } = enrichmentSupport(() => rde);
  const search = (key: string) =>
    api(rde, 'POST', '/search/people_search', { key, body: { query: { titles: ['Software Engineer'] }, limit: 2 } });
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
    expect(meta).toMatchObject({ credits_charged: 1, reserved: 0, settled: true, balance: before.balance - 1 });
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

  describe('settled on a finished search (decision 0079)', () => {
    afterAll(() => resetKnobs());

    test('with nothing reserved and no job open, a charged search says settled: true and its balance is final', async () => {
      const key = await workspace();
      const response = await search(key);

      expect(response.status).toBe(200);
      const meta = response.body._meta;
      expect(meta).toMatchObject({ credits_charged: 2, reserved: 0, settled: true, balance: 98 });
      await waitUntil(
        async () => (await api(rde, 'GET', '/billing/balance', { key })).body._meta.settled === true,
        20_000,
      );
      expect((await api(rde, 'GET', '/billing/balance', { key })).body.balance).toBe(meta.balance);
    });

    test('while another run of the workspace holds credits for an open job, the search says settled: false', async () => {
      const key = await workspace();
      await knobs('mailfinder', { hit_rate_multiplier: 0 });
      await knobs('bulkmail', { job_duration_ms: { median: 600_000, p95: 600_000 } });
      const enrich = await api(rde, 'POST', '/enrich/email_enrichment', {
        key,
        body: { rows: await peopleRows(8100, 12) },
      });
      expect(enrich.status).toBe(200);
      await waitUntil(async () => (await api(rde, 'GET', '/billing/balance', { key })).body.reserved > 0, 20_000);

      const response = await search(key);

      expect(response.status).toBe(200);
      expect(response.body._meta).toMatchObject({ credits_charged: 2, settled: false });
      expect(response.body._meta.reserved).toBeGreaterThan(0);
    });
  });
});
