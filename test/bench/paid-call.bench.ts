/**
 * The paid call path end to end: 1,000 paid single tool calls through the gateway (reserve, vendor
 * call, run state and settlement in one write, relay, billing's consumer), the time billing takes to
 * drain the settlements they left, then the settlement lag of a few calls made one at a time.
 * Prints figures; asserts nothing on time. `test/bench/run` prints the whole table of issue 8.
 *
 *   pnpm run build && RDE_E2E_MODE=all pnpm exec tsx test/bench/paid-call.bench.ts
 *
 * BENCH_CALLS (1000) and BENCH_CONCURRENCY (8) size the run; the sandbox answers without latency or
 * rate limits unless BENCH_VENDOR_LATENCY=1, so the figures are RDE's own path. For a CPU profile
 * of the RDE processes: RDE_E2E_NODE_FLAGS="--cpu-prof --cpu-prof-dir=/tmp/prof".
 */
import { mode, startRde } from '../e2e/harness';
import { describePercentiles, paidCall, settlementLags, throughput, untilSettled, workspaceKeys } from './lib';

const CALLS = Number(process.env.BENCH_CALLS ?? 1_000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);
const LAG_SAMPLES = 20;

async function main(): Promise<void> {
  const vendorLatency = process.env.BENCH_VENDOR_LATENCY === '1';
  const rde = await startRde(vendorLatency ? {} : { RDE_SANDBOX_LATENCY_SCALE: '0', RDE_SANDBOX_RATE_LIMITS: 'false' });
  try {
    const keys = await workspaceKeys(rde, CALLS + LAG_SAMPLES + 1);
    console.log(
      `paid-call bench: mode=${mode} calls=${CALLS} concurrency=${CONCURRENCY} workspaces=${keys.length} vendor latency=${vendorLatency ? 'on' : 'off'}`,
    );
    const run = await throughput(CALLS, CONCURRENCY, (i) => paidCall(rde, keys[i % keys.length]));
    console.log(describePercentiles('call latency', run.latencies));
    console.log(`  throughput ${run.perSecond.toFixed(1)} calls/s`);

    const drainBegan = performance.now();
    for (const key of keys) await untilSettled(rde, key);
    console.log(`  settlement backlog drained ${(performance.now() - drainBegan).toFixed(0)} ms after the last answer`);

    const lags = await settlementLags(rde, keys, LAG_SAMPLES);
    console.log(describePercentiles('settlement lag (response → /billing/balance settled)', lags));
  } finally {
    await rde.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
