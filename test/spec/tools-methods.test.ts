import { api, sandboxCounters, type ApiResponse } from '../e2e/api';
import { mode, startRde, waitUntil, type RunningRde } from '../e2e/harness';

jest.setTimeout(180_000);

/**
 * The spec's Tools section, the five rules of POST /tools/{tool}/{method}, through the gateway:
 * the body, the ledger and the vendor's request counter.
 */

const SEARCH = '/tools/pplgraph/search';
const ENGINEERS = { query: { job_title: ['Software Engineer'] } };
const EXPECTED = ['query', 'size', 'scroll_token'];

interface LedgerRow {
  id: string;
  kind: string;
  amount: number;
  run_id: string;
}

describe(`tools: POST /tools/{tool}/{method} (${mode})`, () => {
  let rde: RunningRde;

  beforeAll(async () => {
    // Vendors answer at once: the suite checks what is called and charged, not how long vendors take.
    rde = await startRde({ RDE_SANDBOX_LATENCY_SCALE: '0' }, mode, { shared: true });
  });

  afterAll(async () => {
    await rde?.stop();
  });

  const balance = async () => (await api(rde, 'GET', '/billing/balance')).body;
  const requests = async (vendor: string, endpoint: string) =>
    (await sandboxCounters(rde))[vendor]?.[endpoint]?.requests ?? 0;

  /** Waits until billing applied every open hold, then reads the balance. */
  async function settledBalance() {
    await waitUntil(async () => (await balance())._meta.settled === true, 10_000);
    return balance();
  }

  /** What a call did once settled: its response, the vendor requests it made, what it spent and its ledger rows. */
  async function effectOf(vendor: string, endpoint: string, call: () => Promise<ApiResponse>) {
    const before = await settledBalance();
    const requestsBefore = await requests(vendor, endpoint);
    const response = await call();
    const after = await settledBalance();
    const known = new Set(before.recent_ledger.map((entry: LedgerRow) => entry.id));
    return {
      response,
      vendorCalls: (await requests(vendor, endpoint)) - requestsBefore,
      spent: before.balance - after.balance,
      reserved: after.reserved,
      entries: after.recent_ledger.filter((entry: LedgerRow) => !known.has(entry.id)) as LedgerRow[],
    };
  }

  const nothingDone = { vendorCalls: 0, spent: 0, reserved: 0, entries: [] };

  test('rule 1: a payload key the method does not have is 400 invalid_payload with unknown and expected, before any charge', async () => {
    const effect = await effectOf('pplgraph', 'search', () =>
      api(rde, 'POST', SEARCH, { body: { payload: { ...ENGINEERS, colour: 'red' } } }),
    );
    expect(effect.response.status).toBe(400);
    expect(effect.response.body).toEqual({ error: 'invalid_payload', unknown: ['colour'], expected: EXPECTED });
    expect(effect).toMatchObject(nothingDone);
  });

  test('rule 2: a payload omitting a required key is 400 invalid_payload with missing and expected, before any charge', async () => {
    const effect = await effectOf('pplgraph', 'search', () =>
      api(rde, 'POST', SEARCH, { body: { payload: { size: 5 } } }),
    );
    expect(effect.response.status).toBe(400);
    expect(effect.response.body).toEqual({ error: 'invalid_payload', missing: ['query'], expected: EXPECTED });
    expect(effect).toMatchObject(nothingDone);
  });

  test('rules 1 and 2: a value of the wrong type is 400 invalid_payload naming the key; a malformed body is 422; neither charges', async () => {
    const wrongType = await effectOf('pplgraph', 'search', () =>
      api(rde, 'POST', SEARCH, { body: { payload: { ...ENGINEERS, size: 1_000 } } }),
    );
    expect(wrongType.response.status).toBe(400);
    expect(wrongType.response.body).toMatchObject({
      error: 'invalid_payload',
      invalid: [expect.objectContaining({ key: 'size' })],
    });
    expect(wrongType).toMatchObject(nothingDone);

    const malformed = await effectOf('pplgraph', 'search', () =>
      api(rde, 'POST', SEARCH, { body: { payload: 'everyone', dry_run: 'perhaps', extra: 1 } }),
    );
    expect(malformed.response.status).toBe(422);
    expect(malformed.response.body.detail).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ loc: ['body', 'payload'], type: 'object_type' }),
        expect.objectContaining({ loc: ['body', 'dry_run'], type: 'boolean_type' }),
        expect.objectContaining({ loc: ['body', 'extra'], type: 'extra_forbidden' }),
      ]),
    );
    expect(malformed).toMatchObject(nothingDone);
  });

  test('rule 3: a method taking vendor options passes an unrecognised key to the vendor, and the call is billed', async () => {
    const payload = { title: ['Software Engineer'], per_page: 2, colour: 'red' };
    const dryRun = await api(rde, 'POST', '/tools/prospectdb/search', { body: { payload, dry_run: true } });
    expect(dryRun.status).toBe(200);
    expect(JSON.stringify([dryRun.body.args, dryRun.body.kwargs])).toContain('"colour":"red"');

    const effect = await effectOf('prospectdb', 'search', () =>
      api(rde, 'POST', '/tools/prospectdb/search', { body: { payload } }),
    );
    expect(effect.response.status).toBe(200);
    expect(effect.response.body.people).toHaveLength(2);
    expect(effect.vendorCalls).toBe(1);
    const runId = effect.response.body._meta.run_id;
    expect(effect.entries).toEqual([expect.objectContaining({ kind: 'charge', run_id: runId })]);
    expect(effect.spent).toBe(effect.response.body._meta.credits_charged);
    expect(effect.spent).toBeGreaterThan(0);
  });

  test('rule 4: a paid response with table-like rows is persisted: dataset_id and row_count, its rows readable', async () => {
    const effect = await effectOf('pplgraph', 'search', () =>
      api(rde, 'POST', SEARCH, { body: { payload: { ...ENGINEERS, size: 5 } } }),
    );
    expect(effect.response.status).toBe(200);
    const { _meta: meta, data } = effect.response.body;
    expect(data).toHaveLength(5);
    expect(meta).toMatchObject({ credits_charged: 5, row_count: 5, dataset_id: expect.stringMatching(/^ds_/) });
    expect(effect).toMatchObject({ vendorCalls: 1, spent: 5, reserved: 0 });
    expect(effect.entries).toEqual([
      expect.objectContaining({ id: `${meta.run_id}:0:pplgraph.search`, kind: 'charge', amount: -5 }),
    ]);
    const rows = await api(rde, 'GET', `/api/v2/datasets/${meta.dataset_id}/rows?limit=50`);
    expect(rows.body.rows).toEqual(data);
  });

  test('rule 4: above the inline cap the rows go to a dataset; the answer keeps the vendor metadata and a five-row sample', async () => {
    const effect = await effectOf('pplgraph', 'search', () =>
      api(rde, 'POST', SEARCH, { body: { payload: { ...ENGINEERS, size: 30 } } }),
    );
    expect(effect.response.status).toBe(200);
    const { _meta: meta, data, total, scroll_token: scrollToken } = effect.response.body;
    expect(meta).toMatchObject({ credits_charged: 30, row_count: 30, dataset_id: expect.stringMatching(/^ds_/) });
    expect(typeof total).toBe('number');
    expect(scrollToken).toBe('30');
    expect(data).toMatchObject({ id: meta.dataset_id, row_count: 30 });
    expect(data.sample).toHaveLength(5);
    expect(data.sample[0]).toHaveProperty('pg_id');
    expect(effect).toMatchObject({ vendorCalls: 1, spent: 30, reserved: 0 });

    const stored = await api(rde, 'GET', `/api/v2/datasets/${meta.dataset_id}`);
    expect(stored.status).toBe(200);
    expect(stored.body).toMatchObject({ id: meta.dataset_id, row_count: 30 });
    const rows = await api(rde, 'GET', `/api/v2/datasets/${meta.dataset_id}/rows?limit=50`);
    expect(rows.body.rows).toHaveLength(30);
    expect(rows.body.rows.slice(0, 5)).toEqual(data.sample);
    // The dataset stores rows, not the provider's metadata.
    expect(rows.body.rows.some((row: object) => 'total' in row || 'scroll_token' in row)).toBe(false);
  });

  test('rule 4: a response that consumes no credits is not persisted, even with rows', async () => {
    const effect = await effectOf('prospectdb', 'geo', () =>
      api(rde, 'POST', '/tools/prospectdb/geo', { body: { payload: { q: 'san' } } }),
    );
    expect(effect.response.status).toBe(200);
    expect(Array.isArray(effect.response.body.geos)).toBe(true);
    expect(effect.response.body._meta).toEqual({ credits_charged: 0 });
    expect(effect).toMatchObject({ ...nothingDone, vendorCalls: 1 });
  });

  test('rule 5: dry_run answers would_charge_credits, would_call and the resolved args and kwargs, charging nothing', async () => {
    const effect = await effectOf('pplgraph', 'search', () =>
      api(rde, 'POST', SEARCH, { body: { args: [ENGINEERS.query], kwargs: { size: 40 }, dry_run: true } }),
    );
    expect(effect.response.status).toBe(200);
    expect(effect.response.body).toEqual({
      dry_run: true,
      args: [ENGINEERS.query],
      kwargs: { size: 40 },
      _meta: { would_charge_credits: 1, would_charge_credits_max: 40, would_call: 'pplgraph.search' },
    });
    expect(effect).toMatchObject(nothingDone);
  });
});
