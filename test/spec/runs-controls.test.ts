import { api } from '../e2e/api';
import { mode, startRde, type RunningRde } from '../e2e/harness';
import { QUICK_RUNS_ENV, enrichmentSupport, type EnrichedRow } from './enrichment-support';

jest.setTimeout(240_000);

/**
 * Decision 0033 (not in the spec): cancelling a dataset run, and a workspace's concurrent-run
 * limit (2 here). The vendor is slowed so that runs are still running when the test acts on them.
 */
describe(`dataset enrichment run controls (${mode})`, () => {
  let rde: RunningRde;
  const {
    workspace,
    peopleRows,
    knobs,
    resetKnobs,
    settled,
    charges,
    startRun: start,
    endedRun,
  } = enrichmentSupport(() => rde);

  beforeAll(async () => {
    rde = await startRde({
      ...QUICK_RUNS_ENV,
      RDE_ENRICH_RUN_SLOTS: '2',
      RDE_ENRICH_RUN_DETACH_MS: '500',
      RDE_ENRICH_RUN_WORKSPACE_LIMIT: '2',
    });
  });

  afterAll(async () => {
    await rde?.stop();
  });

  afterEach(() => resetKnobs());

  const cancel = (key: string, runId: string) => api(rde, 'POST', `/enrich/runs/${runId}/cancel`, { key });
  const ended = (key: string, runId: string) => endedRun(key, runId, 120_000);

  test('cancel: chunks not started walk nothing, the run ends cancelled, only what was found is billed', async () => {
    const [key, stranger] = [await workspace(), await workspace()];
    // Slow enough that, on a loaded machine too, chunks are still waiting when the cancel lands.
    await knobs('mailfinder', { latency_ms: { median: 1500, p95: 1500 } });
    const rows = await peopleRows(11_000, 80);
    const started = await start(key, rows);
    expect(started.body._meta.status).toBe('running');
    const runId = started.body._meta.run_id as string;
    // Another workspace can neither see nor cancel it.
    expect((await cancel(stranger, runId)).status).toBe(404);

    const cancelled = await cancel(key, runId);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.run_id).toBe(runId);
    const run = await ended(key, runId);
    expect(run._meta).toMatchObject({ status: 'cancelled', progress: { done: 80, total: 80 } });
    expect(run.summary.not_reached).toBeGreaterThan(0);
    const out = (await api(rde, 'GET', `/api/v2/datasets/${run.dataset_id}/rows?limit=100`, { key })).body
      .rows as EnrichedRow[];
    const walked = out.filter((row) => Array.isArray(row.steps));
    expect(walked.length).toBe(80 - run.summary.not_reached);
    for (const [i, row] of out.entries()) if (!Array.isArray(row.steps)) expect(row).toEqual(rows[i]);
    const hits = out.filter((row) => row.hit).length;
    expect(run._meta.credits_charged).toBe(hits);
    const balance = await settled(key, 60_000);
    expect(await charges(key)).toHaveLength(hits);
    expect(balance).toMatchObject({ balance: 100 - hits, reserved: 0 });
    // Cancelling an ended run changes nothing.
    expect((await cancel(key, runId)).body._meta.status).toBe('cancelled');
  });

  test('concurrent runs: past the workspace limit a run is 429 too_many_runs, before any hold or vendor call', async () => {
    const key = await workspace();
    await knobs('mailfinder', { latency_ms: { median: 800, p95: 800 } });
    const runs = await Promise.all([
      start(key, await peopleRows(12_000, 40)),
      start(key, await peopleRows(12_100, 40)),
    ]);
    for (const response of runs) expect(response.body._meta.status).toBe('running');
    const third = await peopleRows(12_200, 5);
    const refused = await start(key, third);
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ error: 'too_many_runs', limit: 2, running: 2 });
    expect(refused.body._meta).toBeUndefined();
    // Once a run ends (here: cancelled), the workspace may start another.
    for (const response of runs) await cancel(key, response.body._meta.run_id as string);
    for (const response of runs) await ended(key, response.body._meta.run_id as string);
    const accepted = await start(key, third);
    expect(accepted.status).toBe(200);
    await ended(key, accepted.body._meta.run_id as string);
    await settled(key, 60_000);
  });
});
