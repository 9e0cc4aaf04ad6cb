/**
 * The paid call path end to end: 1,000 paid single tool calls through the gateway (reserve, vendor
 * call, run state and settlement in one write, relay, billing's consumer), the time billing takes to
 * drain the settlements they left, then the settlement lag of a few calls made one at a time.
 * Prints figures; asserts nothing on time.
 *
 *   npx tsc -b && RDE_E2E_MODE=all npx tsx test/bench/paid-call.bench.ts
 *
 * BENCH_CALLS (1000) and BENCH_CONCURRENCY (8) size the run; the sandbox answers without latency or
 * rate limits unless BENCH_VENDOR_LATENCY=1, so the figures are RDE's own path.
 */
import { api } from '../e2e/api';
import { mode, startRde, type RunningRde } from '../e2e/harness';

const CALLS = Number(process.env.BENCH_CALLS ?? 1_000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);
const LAG_SAMPLES = 20;
/** One profile a call: at most one credit, so a free grant (100 credits) covers this many calls. */
const BODY = { payload: { query: { job_title: ['Software Engineer'] }, size: 1 } };
const CALLS_PER_WORKSPACE = 90;

async function main(): Promise<void> {
  const vendorLatency = process.env.BENCH_VENDOR_LATENCY === '1';
  const rde = await startRde(vendorLatency ? {} : { RDE_SANDBOX_LATENCY_SCALE: '0', RDE_SANDBOX_RATE_LIMITS: 'false' });
  try {
    const keys = await workspaceKeys(rde, Math.ceil((CALLS + LAG_SAMPLES) / CALLS_PER_WORKSPACE));
    console.log(
      `paid-call bench: mode=${mode} calls=${CALLS} concurrency=${CONCURRENCY} workspaces=${keys.length} vendor latency=${vendorLatency ? 'on' : 'off'}`,
    );

    await paidCall(rde, keys[0]); // warm-up: connections, JIT
    const began = performance.now();
    const latencies = await runConcurrently(CALLS, CONCURRENCY, (i) =>
      timed(() => paidCall(rde, keys[i % keys.length])),
    );
    const seconds = (performance.now() - began) / 1000;
    report('call latency', latencies);
    console.log(`  throughput ${(CALLS / seconds).toFixed(1)} calls/s`);

    // Billing applies settlements one after another: first the backlog of the run above drains.
    const drainBegan = performance.now();
    for (const key of keys) await untilSettled(rde, key);
    console.log(`  settlement backlog drained ${(performance.now() - drainBegan).toFixed(0)} ms after the last answer`);

    const lags: number[] = [];
    for (let i = 0; i < LAG_SAMPLES; i++) lags.push(await settlementLag(rde, keys[i % keys.length]));
    report('settlement lag (response → /billing/balance settled)', lags);
  } finally {
    await rde.stop();
  }
}

/** The dev owner's key plus fresh workspaces, each with its own free grant. */
async function workspaceKeys(rde: RunningRde, count: number): Promise<string[]> {
  const keys = [rde.ownerKey];
  for (let i = 1; i < count; i++) {
    const created = JSON.parse(
      await rde.admin(['create-workspace', '--email', `bench-${i}-${Date.now()}@example.test`]),
    ) as { key: string };
    keys.push(created.key);
  }
  return keys;
}

async function paidCall(rde: RunningRde, key: string): Promise<void> {
  const response = await api(rde, 'POST', '/tools/pplgraph/search', { key, body: BODY });
  if (response.status !== 200) throw new Error(`paid call answered ${response.status}: ${response.text}`);
}

/** How long after its answer a lone paid call is settled. */
async function settlementLag(rde: RunningRde, key: string): Promise<number> {
  await paidCall(rde, key);
  const answered = performance.now();
  await untilSettled(rde, key);
  return performance.now() - answered;
}

/** Polls `/billing/balance` until the workspace has no open hold. */
async function untilSettled(rde: RunningRde, key: string): Promise<void> {
  const began = performance.now();
  for (;;) {
    const { body } = await api(rde, 'GET', '/billing/balance', { key });
    if (body._meta.settled === true) return;
    if (performance.now() - began > 120_000) throw new Error('a workspace was not settled within 120 s');
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

async function timed(work: () => Promise<void>): Promise<number> {
  const began = performance.now();
  await work();
  return performance.now() - began;
}

/** Runs `count` tasks, at most `concurrency` at a time, and returns their results in order. */
async function runConcurrently<T>(
  count: number,
  concurrency: number,
  task: (index: number) => Promise<T>,
): Promise<T[]> {
  const results: T[] = new Array(count);
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const index = next++;
      results[index] = await task(index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
  return results;
}

function report(name: string, milliseconds: number[]): void {
  const sorted = [...milliseconds].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))].toFixed(1);
  console.log(
    `${name}: n=${sorted.length} median ${at(0.5)} ms, p99 ${at(0.99)} ms, max ${sorted.at(-1)!.toFixed(1)} ms`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
