import { api } from '../e2e/api';
import { mode, startRde, type RunningRde } from '../e2e/harness';
import { enrichmentSupport, rowOf, type EnrichedRow } from './enrichment-support';

jest.setTimeout(300_000);

/** Rows of the input: past one create's 10,000 rows and, as JSON, past one 4 MiB gRPC message. */
const ROWS = 20_000;
/** What one create (and one append) takes. */
const PART = 10_000;
/** The rows read back per page (the largest page). */
const PAGE = 1_000;

/**
 * Rule 1 of Dataset enrichment runs at the size users bring (decision 0047): a dataset built from a
 * create and an append, larger than any one message between the services, enriched into a new
 * dataset. Only a short range is walked, so the run stays cheap in vendor calls and credits.
 */
describe(`dataset enrichment runs of large datasets (${mode})`, () => {
  let rde: RunningRde;
  const support = enrichmentSupport(() => rde);
  const { workspace, person, callsDuring, settled, charges } = support;

  beforeAll(async () => {
    rde = await startRde({
      RDE_SANDBOX_LATENCY_SCALE: '0',
      RDE_SANDBOX_RATE_LIMITS: 'false',
      RDE_ENRICH_POLL_BUDGET_MS: '2500',
      RDE_ENRICH_POLL_INTERVAL_MS: '200',
      RDE_ENRICH_RUN_CHUNK_ROWS: '5',
      RDE_ENRICH_RUN_SWEEP_MS: '300',
      // Room for the input and one copy of it, not two.
      RDE_DATASET_QUOTA_ROWS: String(ROWS * 2.5),
    });
  });

  afterAll(async () => {
    await rde?.stop();
  });

  /** Every row of a dataset, page by page as a client reads it. */
  async function allRows(key: string, datasetId: string): Promise<EnrichedRow[]> {
    const rows: EnrichedRow[] = [];
    for (let offset = 0; ; offset += PAGE) {
      const page = await api(rde, 'GET', `/api/v2/datasets/${datasetId}/rows?offset=${offset}&limit=${PAGE}`, { key });
      expect(page.status).toBe(200);
      expect(page.body.total).toBe(ROWS);
      rows.push(...(page.body.rows as EnrichedRow[]));
      if (page.body.rows.length < PAGE) return rows;
    }
  }

  test('rule 1: a dataset larger than one message between services is enriched into a new dataset, every row kept', async () => {
    const key = await workspace();
    const people = await Promise.all(Array.from({ length: 10 }, (_, i) => person(7000 + i)));
    const rows = Array.from({ length: ROWS }, (_, i) =>
      i < people.length
        ? rowOf(people[i]!, { notes: 'n'.repeat(150) })
        : {
            name: `Lead ${i}`,
            company_domain: `company-${i}.example`,
            linkedin_url: `https://www.linkedin.com/in/lead-${i}`,
            notes: 'n'.repeat(150),
          },
    );
    expect(Buffer.byteLength(JSON.stringify(rows))).toBeGreaterThan(4 * 1024 * 1024);
    const created = await api(rde, 'POST', '/api/v2/datasets', {
      key,
      body: { name: 'big list', rows: rows.slice(0, PART) },
    });
    expect(created.status).toBe(201);
    const input = created.body.id as string;
    const appended = await api(rde, 'POST', `/api/v2/datasets/${input}/rows`, {
      key,
      body: { offset: PART, rows: rows.slice(PART) },
    });
    expect(appended.status).toBe(200);
    expect(appended.body.row_count).toBe(ROWS);

    const { result, calls } = await callsDuring(() =>
      api(rde, 'POST', '/enrich/run', {
        key,
        body: { input, steps: ['email_enrichment'], range: '0:10', output_name: 'big list enriched' },
      }),
    );
    expect(result.status).toBe(200);
    const meta = result.body._meta;
    expect(meta).toMatchObject({ status: 'completed', progress: { done: 10, total: 10 }, row_count: ROWS });
    expect(meta.dataset_id).not.toBe(input);
    expect(calls['mailfinder.find']).toBe(10);

    const output = await api(rde, 'GET', `/api/v2/datasets/${meta.dataset_id}`, { key });
    expect(output.body).toMatchObject({ name: 'big list enriched', row_count: ROWS, enrich_status: 'completed' });
    const out = await allRows(key, meta.dataset_id);
    expect(out).toHaveLength(ROWS);
    for (const [i, row] of out.entries()) {
      if (i < 10) expect(row.steps.length).toBeGreaterThan(0);
      else expect(row).toEqual(rows[i]);
    }
    const hits = out.filter((row) => row.hit).length;
    expect(result.body.summary).toMatchObject({ rows: ROWS, in_range: 10, passed_through: ROWS - 10, enriched: hits });
    expect(meta.credits_charged).toBe(hits);

    // The poll answers the 5-row sample and the columns of the output.
    const polled = await api(rde, 'GET', `/enrich/runs/${meta.run_id}`, { key });
    expect(polled.body.sample).toEqual(out.slice(0, 5));
    expect(polled.body.columns).toEqual(expect.arrayContaining(['name', 'notes', 'steps', 'hit']));

    // Every hit billed once; the hold is gone.
    const balance = await settled(key, 60_000);
    const ledger = await charges(key);
    expect(new Set(ledger.map((entry) => entry.id)).size).toBe(ledger.length);
    expect(Math.round(ledger.reduce((sum, entry) => sum + entry.amount, 0) * 1000)).toBe(hits * 1000);
    expect(balance).toMatchObject({ balance: 100 - hits, reserved: 0 });
    // A second copy would pass the workspace's rows quota: 409 before anything is held or called.
    const { result: refused, calls: refusedCalls } = await callsDuring(() =>
      api(rde, 'POST', '/enrich/run', { key, body: { input, steps: ['email_enrichment'], range: '10:20' } }),
    );
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toMatchObject({ reason: 'dataset_quota_exceeded', quota: 'rows' });
    expect(refusedCalls).toEqual({});
    expect(await settled(key)).toMatchObject({ balance: 100 - hits, reserved: 0 });
    expect((await api(rde, 'GET', '/api/v2/datasets', { key })).body.total).toBe(2);
    // The input is left as it was.
    expect((await api(rde, 'GET', `/api/v2/datasets/${input}`, { key })).body).toMatchObject({
      row_count: ROWS,
      enrich_status: 'none',
    });
  });
});
