/**
 * The distributed paid call, process by process: BENCH_CALLS (600) paid calls at BENCH_CONCURRENCY
 * (32) over fresh workspaces, then every settlement applied, and the CPU each RDE process (and the
 * store's, when BENCH_STORE_PID names its process, e.g. a mongo-java-server of one's own) spent per
 * call. CPU per call is the figure a shared machine does not distort; calls/s is printed beside it.
 * Before the load, the same processes sit idle for BENCH_IDLE_SECONDS (10) and their CPU per second
 * is printed: what every process spends on consumers, relays and sweeps with no traffic at all.
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
const IDLE_SECONDS = Number(process.env.BENCH_IDLE_SECONDS ?? 10);
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
    await printIdleCpu(pids);
    const before = cpuOf(pids);
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

const cpuOf = (pids: Map<string, number>) => new Map([...pids].map(([name, pid]) => [name, processCpuSeconds(pid)]));

/** CPU milliseconds per second each process spends with no request in flight. */
async function printIdleCpu(pids: Map<string, number>): Promise<void> {
  const before = cpuOf(pids);
  await new Promise((resolve) => setTimeout(resolve, IDLE_SECONDS * 1000));
  const perSecond = [...cpuOf(pids)].map(
    ([name, seconds]) => [name, ((seconds - before.get(name)!) * 1000) / IDLE_SECONDS] as const,
  );
  const together = perSecond.filter(([name]) => name !== 'store').reduce((sum, [, ms]) => sum + ms, 0);
  console.log(`idle, ${IDLE_SECONDS} s: RDE processes together ${together.toFixed(0)} ms of CPU per second`);
  console.log(`  CPU ms per second: ${perSecond.map(([name, ms]) => `${name} ${ms.toFixed(0)}`).join(', ')}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
