/**
 * Every figure of issue 8's table, each beside its reference measured in the same run (a bare
 * fastify hello, the sandbox vendor called directly). Prints; asserts nothing on time.
 *
 *   test/bench/run                     (or: pnpm bench)
 *
 * All-in-one always runs. The distributed rows run against whatever `deploy/backends.sh env` gives
 * (RDE_MONGO_URL, RDE_KAFKA_BROKERS, RDE_REDIS_URL in the environment) and print "n/a" with the
 * reason when it gives nothing. BENCH_CALLS (1000) paid calls per throughput row, BENCH_SECONDS (5)
 * per autocannon row, BENCH_SERIAL_CALLS (300) for the one-at-a-time overhead row.
 */
import { availableParallelism, loadavg } from 'node:os';
import { startRde, type RunningRde, type StartOptions } from '../e2e/harness';
import {
  describePercentiles,
  failures,
  paidCall,
  paidCallsPerSecond,
  percentiles,
  rdeCpuSeconds,
  requestsPerSecond,
  settlementLags,
  startFastifyHello,
  startGrpcEchoBehindFastify,
  throughput,
  untilSettled,
  vendorCall,
  vendorCallsPerSecond,
  workspaceKeys,
} from './lib';

const CALLS = Number(process.env.BENCH_CALLS ?? 1_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const SERIAL_CALLS = Number(process.env.BENCH_SERIAL_CALLS ?? 300);
const READ_CONNECTIONS = 32;
const VENDOR_FAST = { RDE_SANDBOX_LATENCY_SCALE: '0', RDE_SANDBOX_RATE_LIMITS: 'false' };

interface Row {
  readonly figure: string;
  readonly measured: string;
  readonly reference?: string;
  readonly ratio?: string;
  readonly goal: string;
}

const rows: Row[] = [];
const fixed = (value: number, digits = 1) => value.toFixed(digits);
const percent = (part: number, whole: number) => `${fixed((100 * part) / whole)} %`;
/** CPU per call and what it allows on one core: the figure a shared machine does not distort. */
const cpu = (msPerCall: number) =>
  `${fixed(msPerCall, 2)} ms RDE CPU per call = ${fixed(1000 / msPerCall, 0)} calls/s per core`;

function record(row: Row): void {
  rows.push(row);
  console.log(`  ${row.figure}: ${row.measured}${row.reference ? ` (reference ${row.reference}, ${row.ratio})` : ''}`);
}

async function main(): Promise<void> {
  // Every figure here shares the machine with whatever else runs: the load says how much.
  const load = loadavg().map((value) => value.toFixed(1));
  console.log(
    `paid-path bench: calls=${CALLS} autocannon ${SECONDS} s × ${READ_CONNECTIONS} connections; ${availableParallelism()} CPUs, load average ${load.join(' ')}`,
  );
  const hello = await startFastifyHello();
  try {
    const helloRps = await requestsPerSecond(hello.url, { connections: READ_CONNECTIONS, seconds: SECONDS });
    console.log(`bare fastify hello: ${fixed(helloRps, 0)} req/s`);
    await allInOne(helloRps);
    await distributed(helloRps);
  } finally {
    hello.stop();
  }
  printTable();
}

/**
 * Rows 1, 4, 5 and 6 all-in-one: the two reads, paid calls/s at concurrency 8, and the overhead of
 * a paid call made one at a time over the same vendor call made directly. The vendor's latency is
 * its own processing only (the sandbox's simulated latency is off, as in the issue's reference).
 */
async function allInOne(helloRps: number): Promise<void> {
  console.log('all-in-one: RDE in one process, the sandbox vendor in its own (in production the vendors are remote)');
  await withRde('all', VENDOR_FAST, { vendorsApart: true }, async (rde) => {
    await readRows(rde, helloRps, 'all-in-one', { keys: 20, plans: 25 });
    const vendor = await vendorCallsPerSecond(rde, 8, CALLS);
    const paid = await paidThroughput(rde, 8);
    record({
      figure: 'paid calls/s, all-in-one, vendor latency off, concurrency 8',
      measured: `${fixed(paid.perSecond)}${failures(paid)}; ${cpu(paid.cpuMsPerCall)}`,
      reference: `sandbox vendor direct ${fixed(vendor.perSecond)} calls/s${failures(vendor)}`,
      ratio: percent(paid.perSecond, vendor.perSecond),
      goal: '≥ 500',
    });
    const keys = await workspaceKeys(rde, SERIAL_CALLS + 1);
    const vendorAlone = percentiles((await throughput(SERIAL_CALLS, 1, () => vendorCall(rde))).latencies);
    const paidAlone = percentiles(
      (await throughput(SERIAL_CALLS, 1, (i) => paidCall(rde, keys[i % keys.length]))).latencies,
    );
    record({
      figure: 'paid call overhead over the vendor latency, one at a time, all-in-one',
      measured: `p50 ${fixed(paidAlone.p50 - vendorAlone.p50)} ms, p99 ${fixed(paidAlone.p99 - vendorAlone.p99)} ms`,
      reference: `vendor direct p50 ${fixed(vendorAlone.p50)} / p99 ${fixed(vendorAlone.p99)} ms`,
      ratio: `paid call p50 ${fixed(paidAlone.p50)} / p99 ${fixed(paidAlone.p99)} ms`,
      goal: '≤ 2 ms p50, ≤ 5 ms p99',
    });
  });
}

/** Rows 2, 3, 5–8 in distributed mode, on the backends the environment names. */
async function distributed(helloRps: number): Promise<void> {
  const missing = ['RDE_MONGO_URL', 'RDE_KAFKA_BROKERS', 'RDE_REDIS_URL'].filter((name) => !process.env[name]);
  const distributedRows = [
    'paid calls/s, distributed, concurrency 8',
    'paid calls/s, distributed, concurrency 32',
    'authenticated read GET /api/v2/keys vs bare fastify hello, distributed',
    'public read GET /api/v2/billing/plans vs bare fastify hello, distributed',
    'billing settlement consumer, distributed',
  ];
  if (missing.length > 0) {
    for (const figure of distributedRows) {
      record({ figure, measured: `n/a: ${missing.join(', ')} unset (eval "$(deploy/backends.sh env)")`, goal: '' });
    }
  } else {
    await echoRow(helloRps);
    await withRde('distributed', VENDOR_FAST, {}, async (rde) => {
      await readRows(rde, helloRps, 'distributed', { keys: 10 });
      const narrow = await paidThroughput(rde, 8);
      record({
        figure: distributedRows[0],
        measured: `${fixed(narrow.perSecond)}${failures(narrow)}; ${cpu(narrow.cpuMsPerCall)}`,
        goal: '—',
      });
      const wide = await paidThroughput(rde, 32);
      record({
        figure: distributedRows[1],
        measured: `${fixed(wide.perSecond)}${failures(wide)}; ${cpu(wide.cpuMsPerCall)}`,
        goal: '≥ 200',
      });
      record({
        figure: distributedRows[4],
        measured: `backlog of ${CALLS} charges drained in ${fixed(wide.drainMs, 0)} ms after the last answer; ${describePercentiles('lone-call settlement lag', await settlementLags(rde, wide.keys, 20))}`,
        goal: '≥ 5,000 charges/s, lag p99 < 1 s at 1,000 charges/s',
      });
    });
  }
  record({
    figure: 'paid calls answered while a billing process is SIGKILLed and restarted',
    measured: 'n/a: counted by the chaos test in test/faults (two replicas per money-writing service)',
    goal: 'none refused',
  });
}

/** The hop's floor beside the distributed reads: fastify → one grpc-js unary echo, three processes. */
async function echoRow(helloRps: number): Promise<void> {
  const echo = await startGrpcEchoBehindFastify();
  try {
    const echoRps = await requestsPerSecond(echo.url, { connections: READ_CONNECTIONS, seconds: SECONDS });
    record({
      figure: 'bare fastify → grpc-js unary echo in another process (the distributed hop, nothing else)',
      measured: `${fixed(echoRps, 0)} req/s`,
      reference: `hello ${fixed(helloRps, 0)} req/s`,
      ratio: percent(echoRps, helloRps),
      goal: '—',
    });
  } finally {
    echo.stop();
  }
}

async function readRows(
  rde: RunningRde,
  helloRps: number,
  modeName: string,
  goals: { keys: number; plans?: number },
): Promise<void> {
  const keysRps = await requestsPerSecond(`${rde.baseUrl}/api/v2/keys`, {
    connections: READ_CONNECTIONS,
    seconds: SECONDS,
    headers: { authorization: `Bearer ${rde.ownerKey}` },
  });
  record({
    figure: `authenticated read GET /api/v2/keys vs bare fastify hello, ${modeName}`,
    measured: `${fixed(keysRps, 0)} req/s`,
    reference: `hello ${fixed(helloRps, 0)} req/s`,
    ratio: percent(keysRps, helloRps),
    goal: `≥ ${goals.keys} %`,
  });
  const plansRps = await requestsPerSecond(`${rde.baseUrl}/api/v2/billing/plans`, {
    connections: READ_CONNECTIONS,
    seconds: SECONDS,
  });
  record({
    figure: `public read GET /api/v2/billing/plans vs bare fastify hello, ${modeName}`,
    measured: `${fixed(plansRps, 0)} req/s`,
    reference: `hello ${fixed(helloRps, 0)} req/s`,
    ratio: percent(plansRps, helloRps),
    goal: goals.plans ? `≥ ${goals.plans} %` : '—',
  });
}

/** CALLS paid calls spread over fresh workspaces, then the time billing takes to settle them all. */
async function paidThroughput(rde: RunningRde, concurrency: number) {
  // Headroom for calls a loaded machine times out and autocannon sends again.
  const keys = await workspaceKeys(rde, Math.ceil((CALLS + concurrency) * 1.5));
  await paidCallsPerSecond(rde, keys, concurrency, concurrency); // warm-up: connections, JIT
  const cpuBefore = rdeCpuSeconds(rde);
  const rate = await paidCallsPerSecond(rde, keys, concurrency, CALLS);
  const answered = performance.now();
  for (const key of keys) await untilSettled(rde, key);
  // Settling is part of a paid call's cost: CPU is read once every settlement is applied.
  const cpuMsPerCall = ((rdeCpuSeconds(rde) - cpuBefore) * 1000) / CALLS;
  return { ...rate, keys, drainMs: performance.now() - answered, cpuMsPerCall };
}

async function withRde(
  modeName: 'all' | 'distributed',
  env: NodeJS.ProcessEnv,
  options: StartOptions,
  work: (rde: RunningRde) => Promise<void>,
): Promise<void> {
  const rde = await startRde(env, modeName, options);
  try {
    await work(rde);
  } finally {
    await rde.stop();
  }
}

function printTable(): void {
  const header: Row = {
    figure: 'figure',
    measured: 'measured',
    reference: 'reference (same run)',
    ratio: 'ratio',
    goal: 'goal',
  };
  const cells = (row: Row) => [row.figure, row.measured, row.reference ?? '', row.ratio ?? '', row.goal];
  console.log('\n| ' + cells(header).join(' | ') + ' |');
  console.log(
    '|' +
      cells(header)
        .map(() => '---')
        .join('|') +
      '|',
  );
  for (const row of rows) console.log('| ' + cells(row).join(' | ') + ' |');
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
