/**
 * The distributed paid call, process by process: BENCH_CALLS (600) paid calls at BENCH_CONCURRENCY
 * (32) over fresh workspaces, then every settlement applied, and the CPU each RDE process (and the
 * store's, when BENCH_STORE_PID names its process, e.g. a mongo-java-server of one's own) spent per
 * call. CPU per call is the figure a shared machine does not distort; calls/s is printed beside it.
 * Asserts nothing on time.
 *
 *   eval "$(deploy/backends.sh env)" && pnpm exec tsx test/bench/paid-call-processes.bench.ts
 *
 * For a CPU profile of each process under this load: RDE_E2E_NODE_FLAGS="--cpu-prof --cpu-prof-dir=DIR".
 */
import { startRde } from '../e2e/harness';
import { failures, paidCallsPerSecond, processCpuSeconds, untilSettled, workspaceKeys } from './lib';

const CALLS = Number(process.env.BENCH_CALLS ?? 600);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 32);
const STORE_PID = process.env.BENCH_STORE_PID ? Number(process.env.BENCH_STORE_PID) : undefined;
const MODULES = ['gateway', 'auth', 'billing', 'catalog', 'dataset', 'waterfall', 'workflow', 'mcp'];

async function main(): Promise<void> {
  const rde = await startRde({ RDE_SANDBOX_LATENCY_SCALE: '0', RDE_SANDBOX_RATE_LIMITS: 'false' }, 'distributed');
  try {
    const keys = await workspaceKeys(rde, Math.ceil((CALLS + CONCURRENCY) * 1.5));
    await paidCallsPerSecond(rde, keys, CONCURRENCY, CONCURRENCY * 2); // warm-up: connections, JIT
    for (const key of keys) await untilSettled(rde, key);
    const pids = new Map(MODULES.map((module) => [module, rde.processOf(module).pid!]));
    if (STORE_PID) pids.set('store', STORE_PID);
    const before = new Map([...pids].map(([name, pid]) => [name, processCpuSeconds(pid)]));
    const rate = await paidCallsPerSecond(rde, keys, CONCURRENCY, CALLS);
    for (const key of keys) await untilSettled(rde, key);
    const perCall = [...pids].map(
      ([name, pid]) => [name, ((processCpuSeconds(pid) - before.get(name)!) * 1000) / CALLS] as const,
    );
    const together = perCall.filter(([name]) => name !== 'store').reduce((sum, [, ms]) => sum + ms, 0);
    console.log(
      `distributed paid call, c${CONCURRENCY}, ${CALLS} calls: ${rate.perSecond.toFixed(1)} calls/s${failures(rate)}`,
    );
    console.log(`  CPU ms per call: ${perCall.map(([name, ms]) => `${name} ${ms.toFixed(2)}`).join(', ')}`);
    console.log(
      `  RDE processes together: ${together.toFixed(2)} ms per call = ${(1000 / together).toFixed(0)} calls/s per core`,
    );
  } finally {
    await rde.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
