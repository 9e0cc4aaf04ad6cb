/**
 * Issue 25's figures for stored workflows, vendors without latency or rate limits, two workflow
 * replicas (distributed mode), all in one run:
 * - the per-step overhead: a workflow of STEPS identical paid calls, each step's wall time inside the
 *   run (from one step's end to the next's) beside the same call made directly through REST,
 *   alternated so both see the same machine (goal: overhead ≤ 2 ms at the median);
 * - webhook-fired runs per second of a two-step workflow, fired as fast as the runs are worked;
 * - the queue lag (a run's start minus its creation) p99 at a steady 80 % of that rate.
 * Figures only; nothing here asserts a time.
 *
 *   pnpm run build && eval "$(deploy/backends.sh env)" && \
 *     RDE_E2E_MODE=distributed pnpm exec tsx test/bench/workflows.bench.ts
 *
 * BENCH_RUNS (60) sizes the per-step part, BENCH_WEBHOOK_RUNS (300) the webhook part.
 */
import { api } from '../e2e/api';
import { mode, startRde, waitUntil, type RunningRde } from '../e2e/harness';
import { describePercentiles, paidCall, PAID_CALL_BODY, percentiles, runConcurrently, timed } from './lib';

const RUNS = Number(process.env.BENCH_RUNS ?? 60);
const WEBHOOK_RUNS = Number(process.env.BENCH_WEBHOOK_RUNS ?? 300);
const STEPS = 10;
const FIRING_CONCURRENCY = 16;
const ENDED = ['succeeded', 'failed', 'cancelled'];

interface RunRecord {
  id: string;
  status: string;
  created_at: string;
  started_at: string | null;
  ended_at: string | null;
  steps: { id: string; status: string; ended_at: string | null }[];
}

/** The paid call of the REST reference, as a workflow step: the same method and payload. */
const searchStep = (id: string) => ({ id, uses: 'pplgraph.search', with: PAID_CALL_BODY.payload });

const at = (time: string | null) => new Date(time!).getTime();

/** A workspace with `credits` more than its free grant; its owner's key. */
async function fundedKey(rde: RunningRde, credits: number): Promise<string> {
  const email = `bench-wf-${Date.now()}-${Math.random().toString(36).slice(2)}@example.test`;
  const created = JSON.parse(await rde.admin(['create-workspace', '--email', email])) as {
    key: string;
    workspace_id: string;
  };
  const grant = ['grant-credits', '--workspace', created.workspace_id, '--credits', String(credits)];
  await rde.admin([...grant, '--reason', 'workflows bench']);
  return created.key;
}

async function applied(rde: RunningRde, key: string, definition: object): Promise<Record<string, any>> {
  const response = await api(rde, 'POST', '/api/v2/workflows/apply', { key, body: definition });
  if (response.status >= 300) throw new Error(`apply: ${response.status} ${response.text}`);
  return response.body;
}

async function ended(rde: RunningRde, key: string, workflowId: string, runId: string): Promise<RunRecord> {
  const read = async () => (await api(rde, 'GET', `/api/v2/workflows/${workflowId}/runs/${runId}`, { key })).body;
  await waitUntil(async () => ENDED.includes((await read()).status), 300_000, 20);
  const run = (await read()) as RunRecord;
  if (run.status !== 'succeeded') throw new Error(`run ${runId} ended ${run.status}: ${JSON.stringify(run)}`);
  return run;
}

/** Each step's wall time inside a run after the first: from the previous step's end to its own. */
function stepWalls(run: RunRecord): number[] {
  return run.steps.slice(1).map((step, i) => at(step.ended_at) - at(run.steps[i]!.ended_at));
}

async function perStepOverhead(rde: RunningRde): Promise<void> {
  const key = await fundedKey(rde, RUNS * STEPS * 3 + 10); // a run, the REST calls and the idempotent ones
  const steps = Array.from({ length: STEPS }, (_, i) => searchStep(`search_${i + 1}`));
  const { id } = await applied(rde, key, { name: 'bench-steps', trigger: { type: 'manual' }, steps });
  const walls: number[] = [];
  const direct: number[] = [];
  // A step's call carries its paid-call id (exactly once), as a REST call with an Idempotency-Key does.
  const idempotent: number[] = [];
  await paidCall(rde, key);
  for (let i = 0; i < RUNS; i++) {
    const queued = await api(rde, 'POST', '/api/v2/workflows/call', { key, body: { workflow_id: id, input: {} } });
    if (queued.status !== 202) throw new Error(`call: ${queued.status} ${queued.text}`);
    walls.push(...stepWalls(await ended(rde, key, id, queued.body.id)));
    for (let j = 0; j < STEPS - 1; j++) {
      direct.push(await timed(() => paidCall(rde, key)));
      idempotent.push(await timed(() => paidCall(rde, key, { 'Idempotency-Key': `bench-${i}-${j}-${Date.now()}` })));
    }
  }
  console.log(`per-step overhead: ${RUNS} runs of ${STEPS} paid steps (pplgraph.search), each beside the same call`);
  console.log(`  ${describePercentiles('a workflow step, its wall time inside the run (1 ms resolution)', walls)}`);
  console.log(`  ${describePercentiles('the same call through REST (reference)', direct)}`);
  console.log(`  ${describePercentiles('the same call through REST with an Idempotency-Key', idempotent)}`);
  const [step, rest, once] = [percentiles(walls), percentiles(direct), percentiles(idempotent)];
  const over = (reference: typeof rest) =>
    `median ${(step.p50 - reference.p50).toFixed(1)} ms, p99 ${(step.p99 - reference.p99).toFixed(1)} ms`;
  console.log(`  overhead of a step over the REST call: ${over(rest)} (goal ≤ 2 ms median)`);
  console.log(`  overhead of a step over the idempotent REST call: ${over(once)}`);
}

/** Fires `count` runs through the webhook, `concurrency` at a time or one every `everyMs`. */
async function fire(
  rde: RunningRde,
  url: string,
  count: number,
  pace: { concurrency: number } | { everyMs: number },
): Promise<string[]> {
  const one = async (i: number) => {
    const response = await api(rde, 'POST', url, { key: null, body: { n: i } });
    if (response.status !== 202) throw new Error(`webhook: ${response.status} ${response.text}`);
    return response.body.run_id as string;
  };
  if ('concurrency' in pace) return runConcurrently(count, pace.concurrency, one);
  const began = performance.now();
  return Promise.all(
    Array.from({ length: count }, async (_, i) => {
      const due = began + i * pace.everyMs - performance.now();
      if (due > 0) await new Promise((resolve) => setTimeout(resolve, due));
      return one(i);
    }),
  );
}

async function webhookRuns(rde: RunningRde): Promise<void> {
  const key = await fundedKey(rde, WEBHOOK_RUNS * 2 * 3);
  const workflow = await applied(rde, key, {
    name: 'bench-webhook',
    trigger: { type: 'webhook' },
    steps: [searchStep('find'), { id: 'check', uses: 'verimail.verify', with: { email: 'ada@example.com' } }],
  });
  const endedAll = (ids: string[]) => runConcurrently(ids.length, 8, (i) => ended(rde, key, workflow.id, ids[i]!));
  await endedAll(await fire(rde, workflow.webhook_url, 5, { concurrency: 5 }));

  const began = Date.now();
  const saturated = await endedAll(
    await fire(rde, workflow.webhook_url, WEBHOOK_RUNS, { concurrency: FIRING_CONCURRENCY }),
  );
  const rate = WEBHOOK_RUNS / ((Math.max(...saturated.map((run) => at(run.ended_at))) - began) / 1000);
  const replicas = rde.replicasOf('workflow').length;
  console.log(`webhook-fired runs of a 2-step workflow (search, then verify), ${replicas} workflow replica(s):`);
  console.log(
    `  ${WEBHOOK_RUNS} fired ${FIRING_CONCURRENCY} at a time: ${rate.toFixed(1)} runs/s from first fired to last ended`,
  );

  const steady = Math.max(1, rate * 0.8);
  const paced = await endedAll(await fire(rde, workflow.webhook_url, WEBHOOK_RUNS, { everyMs: 1000 / steady }));
  const lags = paced.map((run) => at(run.started_at) - at(run.created_at));
  console.log(`  ${describePercentiles(`queue lag at ${steady.toFixed(1)} runs/s (80 %), created to started`, lags)}`);
}

async function main(): Promise<void> {
  const rde = await startRde(
    { RDE_SANDBOX_LATENCY_SCALE: '0', RDE_SANDBOX_RATE_LIMITS: 'false', RDE_WEBHOOK_RATE_PER_MINUTE: '1000000' },
    mode,
    { replicas: { workflow: 2 } },
  );
  try {
    console.log(`workflows bench: mode=${mode}`);
    await perStepOverhead(rde);
    await webhookRuns(rde);
  } finally {
    await rde.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
