import { api, sandboxCounters, sandboxKnobs } from '../e2e/api';
import { mode, startRde, waitUntil, type RunningRde } from '../e2e/harness';
import { newTeam } from '../e2e/teams';
import { QUICK_ENRICHMENT_ENV } from '../spec/enrichment-support';
import { emailsStep, findStep, runsSupport } from '../spec/workflows-runs-support';

jest.setTimeout(300_000);

const RUNS = 20;

/** A paid search of one person, then that person's work email: two paid calls a run, each slow. */
const searchThenEmail = {
  name: 'kill-me',
  trigger: { type: 'manual' },
  input: { schema: { type: 'object', properties: { city: { type: 'string', maxLength: 50 } } } },
  steps: [findStep(1), emailsStep(1)],
};

/**
 * Two workflow replicas work 20 runs whose steps wait on slow vendors; one replica is SIGKILLed
 * while its runs are mid-step and not restarted. The survivor takes them over once their claims
 * lapse and repeats the cut-short step items under the same call ids, so the search or
 * enrichment the dead replica had asked for is joined, never paid again: every run succeeds, and
 * the ledger holds exactly what the runs report, each charge once. Distributed mode only.
 */
const describeDistributed = mode === 'distributed' ? describe : describe.skip;

describeDistributed('fault: a workflow replica dies while its runs are mid-step', () => {
  let rde: RunningRde;
  const { workflows, applied, run, ledger, sum } = runsSupport(() => rde);

  beforeAll(async () => {
    rde = await startRde(
      { ...QUICK_ENRICHMENT_ENV, RDE_WORKFLOW_RUN_LEASE_MS: '2000', RDE_WORKFLOW_RUN_SWEEP_MS: '300' },
      mode,
      { replicas: { workflow: 2 } },
    );
  });

  afterAll(async () => {
    await rde?.stop();
  });

  test('every run succeeds, and the ledger holds what the runs report, each call charged once', async () => {
    const { owner } = await newTeam(rde, 'wfkill');
    const id = await applied(owner, searchThenEmail);
    await sandboxKnobs(rde, 'pplgraph', { latency_ms: { median: 1500, p95: 1500 } });
    await sandboxKnobs(rde, 'mailfinder', { hit_rate_multiplier: 50, latency_ms: { median: 1500, p95: 1500 } });
    const searches = async () => (await sandboxCounters(rde)).pplgraph?.search?.requests ?? 0;
    const before = await searches();

    const runIds: string[] = [];
    for (let i = 0; i < RUNS; i += 1) {
      const queued = await workflows(owner, 'POST', '/call', { workflow_id: id, input: { city: 'Berlin' } });
      expect(queued.status).toBe(202);
      runIds.push(queued.body.id as string);
    }
    // Both replicas have runs waiting on the vendor when the kill lands.
    await waitUntil(async () => (await searches()) - before >= 8, 60_000, 50);
    const statuses = await Promise.all(runIds.map(async (runId) => (await run(owner, id, runId)).status));
    expect(statuses.filter((status) => status === 'running').length).toBeGreaterThan(0);
    await rde.stopModule(rde.replicasOf('workflow')[0]!, 'SIGKILL');

    const ended = new Map<string, any>();
    await waitUntil(
      async () => {
        for (const runId of runIds.filter((runId) => !ended.has(runId))) {
          const found = await run(owner, id, runId);
          if (['succeeded', 'failed', 'cancelled'].includes(found.status)) ended.set(runId, found);
        }
        return ended.size === RUNS;
      },
      180_000,
      500,
    );
    const runs = runIds.map((runId) => ended.get(runId));
    expect(runs.map((done) => done.status)).toEqual(runIds.map(() => 'succeeded'));
    for (const done of runs) {
      expect(done.steps.map((step: any) => step.status)).toEqual(['succeeded', 'succeeded']);
      expect(done.charged_credits).toBe(sum(done.steps.map((step: any) => step.charged_credits)));
    }

    const charges = (await ledger(owner)).filter((row) => row.kind === 'charge');
    expect(new Set(charges.map((row) => row.id)).size).toBe(charges.length);
    for (const done of runs) {
      const ofRun = charges.filter((row) => row.workflow_run_id === done.id).map((row) => -row.amount);
      expect(sum(ofRun)).toBe(done.charged_credits);
    }
    const total = sum(runs.map((done) => done.charged_credits));
    expect(total).toBeGreaterThan(0);
    expect(sum(charges.map((row) => -row.amount))).toBe(total);
    const balance = (await api(rde, 'GET', '/billing/balance', { key: owner })).body;
    expect(balance).toMatchObject({ reserved: 0 });
    expect(balance.balance).toBeCloseTo(100 - total, 3);
  });
});
