import { api } from '../e2e/api';
import { mode, startRde, waitUntil, type RunningRde } from '../e2e/harness';
import { ENRICH_VENDORS, enrichmentSupport, QUICK_ENRICHMENT_ENV, rowOf } from './enrichment-support';

jest.setTimeout(240_000);

/**
 * The spec's States table: a multi-row enrich call is an Enrich run, polled (free, owner-gated)
 * with GET /enrich/runs/{run_id} like a dataset run, while it runs and once it ended.
 */
describe(`enrich calls' runs poll like dataset runs (${mode})`, () => {
  let rde: RunningRde;
  const support = enrichmentSupport(() => rde);
  const { workspace, person, knobs, resetKnobs, settled, datasetRows } = support;

  beforeAll(async () => {
    rde = await startRde(QUICK_ENRICHMENT_ENV);
  });

  afterAll(async () => {
    await rde?.stop();
  });

  afterEach(() => resetKnobs());

  const enrich = (key: string, capability: string, rows: object[]) =>
    api(rde, 'POST', `/enrich/${capability}`, { key, body: { rows } });
  const poll = (key: string, runId: string) => api(rde, 'GET', `/enrich/runs/${runId}`, { key });
  async function completed(key: string, runId: string) {
    await waitUntil(async () => (await poll(key, runId)).body._meta?.status !== 'running', 60_000, 250);
    return poll(key, runId);
  }
  const rowsFrom = async (from: number, count: number) =>
    Promise.all(Array.from({ length: count }, async (_, i) => rowOf(await person(from + i))));
  /** Every enrichment vendor answers after `ms`, so a multi-row call detaches before its rows end. */
  const slowVendors = (ms: number) =>
    Promise.all(ENRICH_VENDORS.map((vendor) => knobs(vendor, { latency_ms: { median: ms, p95: ms } })));

  test.each([
    ['email_enrichment', 'email', 11_000],
    ['personal_email', 'personal_email', 11_100],
    ['linkedin_profile', 'profile', 11_200],
    ['phone_enrichment', 'phone', 11_300],
  ])(
    'a multi-row %s call’s run id polls running, then completed with the dataset run’s record; free, owner-gated',
    async (capability, field, from) => {
      const key = await workspace();
      await slowVendors(2500);
      const response = await enrich(key, capability, await rowsFrom(from, 6));
      expect(response.body._meta.status).toBe('running');
      const { run_id: runId, dataset_id: datasetId } = response.body._meta;

      const running = await poll(key, runId);
      expect(running.status).toBe(200);
      expect(running.body._meta).toMatchObject({
        run_id: runId,
        status: 'running',
        dataset_id: datasetId,
        progress: { total: 6 },
      });
      expect(running.body._meta.poll_after_s).toBeGreaterThan(0);
      expect((await poll(await workspace(), runId)).status).toBe(404);

      const done = (await completed(key, runId)).body;
      expect(done._meta).toMatchObject({ status: 'completed', dataset_id: datasetId, progress: { done: 6, total: 6 } });
      expect(done._meta).not.toHaveProperty('poll_after_s');
      const rows = await datasetRows(key, datasetId);
      expect(done.sample).toEqual(rows.slice(0, 5));
      expect(done.columns).toEqual(expect.arrayContaining(['name', field, 'hit', 'steps']));
      expect(done.summary).toMatchObject({ enriched: rows.filter((row) => row.hit).length });
      // What the poll says the run charged is what the ledger holds; the polls added nothing.
      await poll(key, runId);
      expect(await settled(key)).toMatchObject({ balance: 100 - done._meta.credits_charged, reserved: 0 });
      expect((await poll(await workspace(), runId)).status).toBe(404);
    },
  );

  test('a replayed call’s run id polls as the first run, completed, at no charge', async () => {
    const key = await workspace();
    const rows = await rowsFrom(11_400, 6);
    const first = await enrich(key, 'email_enrichment', rows);
    const ended = (await completed(key, first.body._meta.run_id)).body;
    const paid = await settled(key);
    const replay = await enrich(key, 'email_enrichment', rows);
    expect(replay.body._meta).toMatchObject({ replayed: true, run_id: first.body._meta.run_id });

    const polled = await poll(key, replay.body._meta.run_id);
    expect(polled.status).toBe(200);
    expect(polled.body).toEqual(ended);
    expect(paid.balance).toBe(100 - ended._meta.credits_charged);
    expect((await settled(key)).balance).toBe(paid.balance);
  });
});
