import { api, sandboxCounters } from '../e2e/api';
import { mode, startRde, waitUntil, type RunningRde } from '../e2e/harness';
import { enrichmentSupport, rowOf, type EnrichedRow } from '../spec/enrichment-support';

jest.setTimeout(240_000);

/**
 * The waterfall process is killed (SIGKILL) while a 100-row email_enrichment is in flight and its
 * BulkMail job is open, then restarted: the restarted process takes the run over once its lease
 * lapses and the job once its lease lapses, every row ends enriched or missed, every hit is billed
 * exactly once, and no hold stays open. Needs a waterfall process of its own: distributed mode only.
 */
const describeDistributed = mode === 'distributed' ? describe : describe.skip;

describeDistributed('fault: the waterfall dies with 100 rows in flight and a provider job open', () => {
  let rde: RunningRde;
  const { workspace, person, knobs, settled, charges, datasetRows } = enrichmentSupport(() => rde);

  beforeAll(async () => {
    rde = await startRde({
      RDE_SANDBOX_LATENCY_SCALE: '0',
      RDE_SANDBOX_RATE_LIMITS: 'false',
      RDE_ENRICH_DETACH_MS: '1000',
      RDE_ENRICH_POLL_BUDGET_MS: '20000',
      RDE_ENRICH_POLL_INTERVAL_MS: '300',
      RDE_ENRICH_JOB_LEASE_MS: '3000',
    });
  });

  afterAll(async () => {
    await rde?.stop();
  });

  test('after the restart every row ends, each hit is billed once and no hold is left', async () => {
    const key = await workspace();
    // Slow enough that the kill lands with rows unanswered and the batch job still running.
    await knobs('mailfinder', { latency_ms: { median: 300, p95: 300 } });
    await knobs('bulkmail', { job_duration_ms: { median: 8000, p95: 8000 } });
    await knobs('reachout', { hit_rate_multiplier: 0 });
    const truth = await Promise.all(Array.from({ length: 100 }, (_, i) => person(40_000 + i)));
    const response = await api(rde, 'POST', '/enrich/email_enrichment', {
      key,
      body: { rows: truth.map((p) => rowOf(p)) },
    });
    expect(response.body._meta.status).toBe('running');
    const datasetId = response.body._meta.dataset_id as string;

    await waitUntil(async () => ((await sandboxCounters(rde)).bulkmail?.submit?.requests ?? 0) > 0, 60_000, 100);
    await rde.stopModule('waterfall', 'SIGKILL');
    await rde.restartModule('waterfall');

    await waitUntil(async () => (await datasetRows(key, datasetId)).every((row) => row.steps.length > 0), 120_000, 500);
    const balance = await settled(key, 120_000);
    const rows: EnrichedRow[] = await datasetRows(key, datasetId);
    for (const [i, row] of rows.entries()) {
      expect(row.reason).toBeUndefined();
      if (row.hit) expect(row.email).toBe(truth[i]!.workEmail);
      else expect(row.email).toBeNull();
    }
    const hits = rows.filter((row) => row.hit).length;
    expect(hits).toBeGreaterThan(0);
    const ledger = await charges(key);
    expect(ledger).toHaveLength(hits);
    expect(new Set(ledger.map((entry) => entry.id)).size).toBe(hits);
    expect(balance).toMatchObject({ balance: 100 - hits, reserved: 0 });
  });
});
