import { api } from '../e2e/api';
import { mode, startRde, waitUntil, type RunningRde } from '../e2e/harness';
import { enrichmentSupport, type EnrichedRow } from '../spec/enrichment-support';

jest.setTimeout(300_000);

const ROWS = 2_000;

/**
 * Two waterfall replicas work a 2,000-row dataset run's chunks; one is SIGKILLed mid-run and not
 * restarted. The survivor takes the dead replica's chunks once their leases lapse: the run
 * completes, every row is enriched or missed once (its email is the person's own or null), every
 * hit is billed once, progress ends at the total, and no hold is left. Distributed mode only.
 */
const describeDistributed = mode === 'distributed' ? describe : describe.skip;

describeDistributed('fault: a waterfall replica dies while a 2,000-row run is in flight', () => {
  let rde: RunningRde;
  const { workspace, person, knobs, settled, charges } = enrichmentSupport(() => rde);

  beforeAll(async () => {
    rde = await startRde(
      {
        RDE_SANDBOX_LATENCY_SCALE: '0',
        RDE_SANDBOX_RATE_LIMITS: 'false',
        RDE_ENRICH_POLL_BUDGET_MS: '5000',
        RDE_ENRICH_POLL_INTERVAL_MS: '200',
        RDE_ENRICH_RUN_CHUNK_ROWS: '20',
        RDE_ENRICH_RUN_CHUNK_LEASE_MS: '3000',
        RDE_ENRICH_RUN_SWEEP_MS: '500',
      },
      mode,
      { replicas: { waterfall: 2 } },
    );
  });

  afterAll(async () => {
    await rde?.stop();
  });

  test('the run completes; each row once, each hit billed once, progress at total', async () => {
    const key = await workspace();
    // Few hits, so the free grant's 100 credits cover every row's actual cost; slow enough that
    // the kill lands mid-run. Rows carry no LinkedIn URL: the async Reachout step is a free skip.
    await knobs('mailfinder', { hit_rate_multiplier: 0.05, latency_ms: { median: 100, p95: 100 } });
    await knobs('bulkmail', { hit_rate_multiplier: 0 });
    const truth = await Promise.all(Array.from({ length: ROWS }, (_, i) => person(60_000 + i)));
    const rows = truth.map((p) => ({ name: p.fullName, company_domain: p.company.domain }));
    const started = await api(rde, 'POST', '/enrich/run', {
      key,
      body: { input_rows: rows, steps: ['email_enrichment'], detach: true },
    });
    expect(started.status).toBe(200);
    const runId = started.body._meta.run_id as string;
    const poll = async () => (await api(rde, 'GET', `/enrich/runs/${runId}`, { key })).body;

    await waitUntil(async () => (await poll())._meta.progress.done >= ROWS / 5, 120_000, 100);
    expect((await poll())._meta.status).toBe('running');
    await rde.stopModule(rde.replicasOf('waterfall')[0]!, 'SIGKILL');

    await waitUntil(async () => (await poll())._meta.status !== 'running', 240_000, 500);
    const run = await poll();
    expect(run._meta).toMatchObject({ status: 'completed', progress: { done: ROWS, total: ROWS } });
    expect(run.summary.not_reached).toBe(0);

    const out: EnrichedRow[] = [];
    for (let offset = 0; offset < ROWS; offset += 1000) {
      const page = await api(rde, 'GET', `/api/v2/datasets/${run.dataset_id}/rows?offset=${offset}&limit=1000`, {
        key,
      });
      out.push(...(page.body.rows as EnrichedRow[]));
    }
    expect(out).toHaveLength(ROWS);
    for (const [i, row] of out.entries()) {
      expect(row.steps.length).toBeGreaterThan(0);
      expect(row.steps.filter((step) => step.outcome === 'hit').length).toBe(row.hit ? 1 : 0);
      expect(row.email).toBe(row.hit ? truth[i]!.workEmail : null);
    }
    const hits = out.filter((row) => row.hit).length;
    expect(hits).toBeGreaterThan(0);
    expect(run.summary.enriched + run.summary.missed).toBe(ROWS);
    expect(run.summary.enriched).toBe(hits);

    const balance = await settled(key, 120_000);
    const ledger = await charges(key);
    expect(ledger).toHaveLength(hits);
    expect(new Set(ledger.map((entry) => entry.id)).size).toBe(hits);
    expect(balance).toMatchObject({ balance: 100 - hits, reserved: 0 });
  });
});
