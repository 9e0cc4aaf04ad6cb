import { api, sandboxCounters, sandboxKnobs } from './api';
import { mode, startRde, waitUntil, type RunningRde } from './harness';

jest.setTimeout(120_000);

const SEARCH = '/tools/pplgraph/search';
const ENGINEERS = { query: { job_title: ['Software Engineer'] } };

interface LedgerRow {
  id: string;
  kind: string;
  amount: number;
  run_id: string;
}

describe(`tools (${mode})`, () => {
  let rde: RunningRde;

  beforeAll(async () => {
    // Vendors answer at once: the suite checks what is charged, not how long vendors take.
    rde = await startRde({ RDE_SANDBOX_LATENCY_SCALE: '0' }, mode, { shared: true });
  });

  afterAll(async () => {
    await rde?.stop();
  });

  const balance = async () => (await api(rde, 'GET', '/billing/balance')).body;
  const searchRequests = async () => (await sandboxCounters(rde)).pplgraph.search.requests;

  /** Waits until billing applied every open hold, then reads the balance. */
  async function settledBalance() {
    await waitUntil(async () => (await balance())._meta.settled === true, 10_000);
    return balance();
  }

  describe('the catalog', () => {
    test('lists every tool with its method count and methods', async () => {
      const response = await api(rde, 'GET', '/tools');
      expect(response.status).toBe(200);
      const { count, tools, results, filter } = response.body;
      expect(filter).toBeNull();
      expect(count).toBe(results.length);
      expect(tools).toContain('pplgraph');
      const pplgraph = results.find((entry: { name: string }) => entry.name === 'pplgraph');
      expect(pplgraph).toMatchObject({ kind: 'data_provider', module: 'people_database' });
      expect(pplgraph.method_count).toBe(pplgraph.methods.length);
      expect(pplgraph.methods).toContainEqual(
        expect.objectContaining({ name: 'search', cost: expect.objectContaining({ credits: 1, unit: 'record' }) }),
      );
    });

    test('a filter narrows by module, by method name, and to nothing', async () => {
      const byModule = (await api(rde, 'GET', '/tools?filter=people_database')).body;
      expect(byModule.filter).toBe('people_database');
      expect(byModule.tools).toContain('pplgraph');
      expect(byModule.results.map((entry: { module: string }) => entry.module)).toEqual(
        byModule.results.map(() => 'people_database'),
      );
      const byMethod = (await api(rde, 'GET', '/tools?filter=search')).body;
      const methodNames = byMethod.results.flatMap((entry: { methods: { name: string }[] }) =>
        entry.methods.map((m) => m.name),
      );
      expect(methodNames).toContain('search');
      expect(methodNames.filter((name: string) => !name.includes('search'))).toEqual([]);
      expect((await api(rde, 'GET', '/tools?filter=nothing-is-called-this')).body).toEqual({
        count: 0,
        tools: [],
        results: [],
        filter: 'nothing-is-called-this',
      });
    });

    test('a method contract has http, path, inputs, cost and payload schema', async () => {
      const response = await api(rde, 'GET', SEARCH);
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({
        tool: 'pplgraph',
        method: 'search',
        http: 'POST',
        path: '/v1/people/search',
        cost: { credits: 1, usd: 0.1, unit: 'record' },
        payload_schema: { type: 'object', required: ['query'] },
        accepts_vendor_options: false,
      });
      expect(response.body.inputs).toContainEqual({
        name: 'query',
        type: 'object',
        required: true,
        description: expect.any(String),
      });
      expect(response.body).not.toHaveProperty('access');
    });

    test('a tool shows every method contract, and a flat name resolves to its method', async () => {
      const tool = (await api(rde, 'GET', '/tools/pplgraph')).body;
      expect(tool.name).toBe('pplgraph');
      expect(tool.methods.map((m: { method: string }) => m.method)).toContain('search');
      const flat = await api(rde, 'GET', '/tools/pplgraph_search');
      expect(flat.status).toBe(200);
      expect(flat.body).toMatchObject({
        tool: 'pplgraph',
        method: 'search',
        resolved_from: 'pplgraph_search',
        http: 'POST',
      });
    });

    test('the OpenAPI document describes the tools routes', async () => {
      const document = (await api(rde, 'GET', '/openapi.json', { key: null })).body;
      expect(Object.keys(document.paths)).toEqual(
        expect.arrayContaining(['/tools', '/tools/{tool}', '/tools/{tool}/{method}']),
      );
      expect(document.paths['/tools/{tool}/{method}'].post.requestBody).toBeDefined();
    });

    test('unknown tools and methods are 404, and the catalog needs a key', async () => {
      for (const path of ['/tools/no_such_tool', '/tools/pplgraph/no_such_method']) {
        expect((await api(rde, 'GET', path)).status).toBe(404);
      }
      expect((await api(rde, 'POST', '/tools/pplgraph/no_such_method', { body: { payload: {} } })).body).toEqual({
        detail: 'unknown method: pplgraph.no_such_method',
      });
      expect((await api(rde, 'GET', '/tools', { key: null })).status).toBe(401);
      expect((await api(rde, 'POST', SEARCH, { key: null, body: { payload: ENGINEERS } })).status).toBe(401);
    });
  });

  describe('a paid call', () => {
    test('charges the returned profiles once, and billing settles it exactly once', async () => {
      const before = await settledBalance();
      const requestsBefore = await searchRequests();

      const response = await api(rde, 'POST', SEARCH, { body: { payload: { ...ENGINEERS, size: 5 } } });
      expect(response.status).toBe(200);
      const { _meta: meta, data } = response.body;
      expect(data).toHaveLength(5);
      expect(meta).toMatchObject({
        credits_charged: 5,
        settled: true, // nothing else held: the figures are final (decision 0079)
        run_id: expect.stringMatching(/^run_/),
        reserved: 0,
      });
      expect(meta.balance).toBe(before.balance - 5);
      expect(meta.dataset_id).toMatch(/^ds_/);
      expect(meta.row_count).toBe(5);
      expect(await searchRequests()).toBe(requestsBefore + 1);

      const after = await settledBalance();
      expect(after.balance).toBe(before.balance - meta.credits_charged);
      expect(after.reserved).toBe(0);
      const entries = after.recent_ledger.filter((entry: LedgerRow) => entry.run_id === meta.run_id);
      expect(entries).toEqual([
        expect.objectContaining({ id: `${meta.run_id}:0:pplgraph.search`, kind: 'charge', amount: -5 }),
      ]);
    });

    test('a per-hit miss is free: the vendor is asked, nothing is charged, the hold is released', async () => {
      const before = await settledBalance();
      const response = await api(rde, 'POST', '/tools/mailfinder/find', {
        body: { payload: { first_name: 'Nobody', last_name: 'Atall', domain: 'no-such-company.example' } },
      });
      expect(response.status).toBe(200);
      expect(response.body.data).toBeNull();
      expect(response.body._meta).toMatchObject({
        credits_charged: 0,
        settled: true,
        reserved: 0,
        run_id: expect.stringMatching(/^run_/),
      });
      const after = await settledBalance();
      expect(after.balance).toBe(before.balance);
      expect(after.recent_ledger.filter((entry: LedgerRow) => entry.run_id === response.body._meta.run_id)).toEqual([]);
    });

    test('a free reference method holds and charges nothing', async () => {
      const before = await settledBalance();
      const geoRequests = async () => (await sandboxCounters(rde)).prospectdb.geo.requests;
      const requestsBefore = await geoRequests();
      const response = await api(rde, 'POST', '/tools/prospectdb/geo', { body: { payload: { q: 'san' } } });
      expect(response.status).toBe(200);
      expect(Array.isArray(response.body.geos)).toBe(true);
      expect(response.body._meta).toEqual({ credits_charged: 0 });
      expect(await geoRequests()).toBe(requestsBefore + 1);
      const after = await balance();
      expect(after).toMatchObject({ balance: before.balance, reserved: 0, available: before.available });
      expect(after._meta.settled).toBe(true);
      expect(after.recent_ledger).toEqual(before.recent_ledger);
    });
  });

  describe('calls that cannot be paid for or completed', () => {
    test('a worst case above the available balance is refused with 402 before the vendor is asked', async () => {
      const before = await settledBalance();
      const requestsBefore = await searchRequests();
      const size = Math.floor(before.available) + 1;
      expect(size).toBeLessThanOrEqual(100); // the free grant less what this suite spent: within one page
      const response = await api(rde, 'POST', SEARCH, { body: { payload: { ...ENGINEERS, size } } });
      expect(response.status).toBe(402);
      expect(response.body).toMatchObject({
        error: 'insufficient_credits',
        required: size,
        available: before.available,
      });
      expect(await searchRequests()).toBe(requestsBefore);
      const after = await balance();
      expect(after).toMatchObject({ balance: before.balance, reserved: 0, available: before.available });
      expect(after._meta.settled).toBe(true);
      expect(after.recent_ledger).toEqual(before.recent_ledger);
    });

    test('a failing vendor answers 502 and the hold is released without a charge', async () => {
      const before = await settledBalance();
      await sandboxKnobs(rde, 'pplgraph', { faults: { timeout: 0, server_error: 1, malformed: 0 } });
      try {
        const response = await api(rde, 'POST', SEARCH, { body: { payload: { ...ENGINEERS, size: 2 } } });
        expect(response.status).toBe(502);
        expect(response.body).toMatchObject({
          error: 'provider_failed',
          tool: 'pplgraph',
          method: 'search',
          credits_charged: 0,
          run_id: expect.stringMatching(/^run_/),
        });
      } finally {
        await sandboxKnobs(rde, 'pplgraph', { faults: { timeout: 0, server_error: 0, malformed: 0 } });
      }
      const after = await settledBalance();
      expect(after.balance).toBe(before.balance);
      expect(after.recent_ledger).toEqual(before.recent_ledger);
    });
  });
});
