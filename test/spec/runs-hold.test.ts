import { setTimeout as sleep } from 'node:timers/promises';
import { api } from '../e2e/api';
import { mode, startRde, type RunningRde } from '../e2e/harness';
import { NO_STRIPE_ENV } from '../e2e/stripe';
import { QUICK_RUNS_ENV, enrichmentSupport } from './enrichment-support';

jest.setTimeout(240_000);

/** A run's hold lives this long unrenewed; billing's reaper looks for expired holds far more often. */
const HOLD_TTL_MS = 1_500;

/**
 * Rule 2's promise (never spend beyond what the balance covered, stop cleanly at the budget) for
 * a run that outlives its hold's lifetime (decision 0031, amended): the hold stands for as long as
 * the run runs, so the credits it covers cannot be spent twice.
 */
describe(`dataset enrichment runs outliving their hold's lifetime (${mode})`, () => {
  let rde: RunningRde;
  const {
    workspace,
    peopleRows,
    knobs,
    resetKnobs,
    settled,
    charges,
    startRun: start,
    pollRun: poll,
    endedRun,
  } = enrichmentSupport(() => rde);

  beforeAll(async () => {
    rde = await startRde({
      ...QUICK_RUNS_ENV,
      ...NO_STRIPE_ENV,
      RDE_WATERFALL_HOLD_TTL_MS: String(HOLD_TTL_MS),
      RDE_BILLING_REAPER_INTERVAL_MS: '200',
      // Small chunks, one at a time per replica, so the run lasts several hold lifetimes.
      RDE_ENRICH_RUN_CHUNK_ROWS: '5',
      RDE_ENRICH_RUN_SLOTS: '1',
    });
  });

  afterAll(async () => {
    await rde?.stop();
  });

  afterEach(() => resetKnobs());

  const ended = (key: string, runId: string) => endedRun(key, runId, 180_000);

  test('rule 2: a run longer than its hold lifetime keeps its hold; a second run cannot take the credits it covers', async () => {
    const key = await workspace();
    // Nearly every row hits (1 credit each) and each lookup is slow: the 100 credits cover about
    // 100 of the 150 rows, and the run takes many hold lifetimes.
    await knobs('mailfinder', { hit_rate_multiplier: 100, latency_ms: { median: 1_000, p95: 1_000 } });
    const first = await start(key, await peopleRows(14_000, 150));
    expect(first.status).toBe(200);
    expect(first.body._meta.warnings).toEqual([expect.objectContaining({ code: 'partial_budget' })]);
    const firstId = first.body._meta.run_id as string;

    // Past two lifetimes (and many reaper passes) the run still holds what it has not spent.
    await sleep(3 * HOLD_TTL_MS);
    expect((await poll(key, firstId))._meta.status).toBe('running');
    const during = (await api(rde, 'GET', '/billing/balance', { key })).body;
    expect(during.reserved).toBeGreaterThan(0);
    expect(during.available).toBeLessThan(1);

    // A second run finds nothing left to hold: refused, or it covers only what the first gave back.
    const second = await start(key, await peopleRows(14_200, 40));
    expect([200, 402]).toContain(second.status);
    if (second.status === 402) expect(second.body).toMatchObject({ error: 'insufficient_credits' });
    const firstRun = await ended(key, firstId);
    const secondRun = second.status === 200 ? await ended(key, second.body._meta.run_id as string) : undefined;

    expect(firstRun._meta.status).toBe('completed');
    expect(firstRun.summary.not_reached).toBeGreaterThan(0);
    const charged = firstRun._meta.credits_charged + (secondRun?._meta.credits_charged ?? 0);
    const balance = await settled(key, 60_000);
    const ledger = await charges(key);
    expect(new Set(ledger.map((entry) => entry.id)).size).toBe(ledger.length);
    expect(ledger.reduce((sum, entry) => sum + entry.amount, 0)).toBeCloseTo(charged, 3);
    // Never beyond the balance: both runs together spent at most the 100 credits there were.
    expect(charged).toBeLessThanOrEqual(100);
    expect(balance).toMatchObject({ balance: 100 - charged, reserved: 0 });
    expect(balance.balance).toBeGreaterThanOrEqual(0);
  });
});
