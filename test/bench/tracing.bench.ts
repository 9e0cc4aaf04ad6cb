/**
 * What tracing costs when it is left on: the authenticated read `GET /api/v2/keys` (bearer
 * resolution through auth, then the keys RPC), three ways side by side in one run: no exporter
 * (telemetry not started), an OTLP exporter at 10 % sampling (parent-based trace-id ratio, as the
 * chart configures it), and at 100 %. The exporter sends to a local OTLP sink that only counts.
 * Prints, for each, requests per second and the CPU the RDE processes spent per request, each as a
 * ratio to the untraced run. CPU per request is the steadier figure on a shared machine, where
 * throughput moves with the neighbours' load. Asserts nothing.
 *
 * Distributed mode (RDE_E2E_MODE=distributed with the backends' env) is the fair comparison: in
 * all-in-one mode telemetry also turns the in-process gRPC calls into loopback ones, so the ratio
 * there mixes two costs.
 *
 *   pnpm run build && RDE_E2E_MODE=distributed pnpm exec tsx test/bench/tracing.bench.ts   (also test/bench/run)
 *
 * BENCH_ROUNDS (3) rounds of BENCH_SECONDS (3) per configuration, at BENCH_CONCURRENCY (16 connections).
 */
import { createServer } from 'node:http';
import { mode, startRde, type RunningRde } from '../e2e/harness';
import { measuredGets, rdeCpuSeconds } from './lib';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
/** The keys read touches none of the money writers: one process each keeps the machine's load down. */
const SINGLE_WRITERS = { billing: 1, catalog: 1, waterfall: 1 };
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);

/** An OTLP/HTTP endpoint that accepts every export and counts them. */
async function otlpSink(): Promise<{ url: string; exports: () => number; close: () => void }> {
  let exports = 0;
  const server = createServer((request, response) => {
    request.resume().on('end', () => {
      exports += 1;
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}`, exports: () => exports, close: () => server.close() };
}

/** The processes a keys read goes through: the others' idle work (pollers, relays) is no part of its cost. */
const KEYS_PATH = ['gateway', 'auth'];

interface Figures {
  readonly perSecond: number;
  readonly cpuMsPerRequest: number;
}

/** One round of `GET /api/v2/keys` over SECONDS (autocannon, after a warm-up): its rate and CPU per request. */
function measure(rde: RunningRde): Promise<Figures> {
  return measuredGets(
    `${rde.baseUrl}/api/v2/keys`,
    { connections: CONCURRENCY, seconds: SECONDS, headers: { authorization: `Bearer ${rde.ownerKey}` } },
    () => rdeCpuSeconds(rde, KEYS_PATH),
  );
}

/** The mean over rounds, each round weighing the same. */
function mean(rounds: Figures[]): Figures {
  const average = (pick: (figures: Figures) => number) => rounds.reduce((sum, r) => sum + pick(r), 0) / rounds.length;
  return { perSecond: average((r) => r.perSecond), cpuMsPerRequest: average((r) => r.cpuMsPerRequest) };
}

/**
 * Every configuration runs at once, each its own RDE, and the rounds take turns (A B C, B C A, …):
 * a neighbour's burst of load then falls on every configuration alike, not on whichever ran during it.
 */
async function interleaved(configurations: NodeJS.ProcessEnv[]): Promise<Figures[]> {
  const stacks: RunningRde[] = [];
  try {
    for (const env of configurations) {
      stacks.push(await startRde({ RDE_LOG_LEVEL: 'warn', ...env }, mode, { replicas: SINGLE_WRITERS }));
    }
    const rounds: Figures[][] = configurations.map(() => []);
    for (let round = 0; round < ROUNDS; round++) {
      for (let turn = 0; turn < stacks.length; turn++) {
        const index = (round + turn) % stacks.length;
        rounds[index].push(await measure(stacks[index]));
      }
    }
    return rounds.map(mean);
  } finally {
    await Promise.all(stacks.map((rde) => rde.stop()));
  }
}

const percentOf = (part: number, whole: number) => `${((100 * part) / whole).toFixed(0).padStart(3)} %`;

/**
 * One row: the figures, and as shares of the untraced run. "CPU-bound" is the untraced CPU per
 * request over this one: the share of the untraced throughput a machine whose cores are the limit reaches.
 */
function row(name: string, figures: Figures, untraced: Figures): string {
  const rate = `${figures.perSecond.toFixed(0).padStart(5)} req/s`;
  const cpu = `${(figures.cpuMsPerRequest * 1000).toFixed(0).padStart(5)} µs CPU/req`;
  if (figures === untraced) return `  ${name.padEnd(22)} ${rate}  ${cpu}`;
  const throughput = percentOf(figures.perSecond, untraced.perSecond);
  const cpuBound = percentOf(untraced.cpuMsPerRequest, figures.cpuMsPerRequest);
  return `  ${name.padEnd(22)} ${rate}  ${cpu}   of untraced: throughput ${throughput}, CPU-bound ${cpuBound}`;
}

async function main(): Promise<void> {
  const sink = await otlpSink();
  const tracedAt = (ratio: string): NodeJS.ProcessEnv => ({
    OTEL_EXPORTER_OTLP_ENDPOINT: sink.url,
    OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf',
    OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
    OTEL_TRACES_SAMPLER_ARG: ratio,
    OTEL_METRICS_EXPORTER: 'none',
    OTEL_LOGS_EXPORTER: 'none',
  });
  try {
    console.log(
      `tracing bench: GET /api/v2/keys, ${mode}, ${ROUNDS} interleaved rounds of ${SECONDS} s, ${CONCURRENCY} connections (goal: ≥ 85 % at 10 %)`,
    );
    const ratios = ['0.1', '1'];
    const [untraced, ...traced] = await interleaved([{}, ...ratios.map(tracedAt)]);
    console.log(row('no exporter', untraced, untraced));
    ratios.forEach((ratio, i) => {
      console.log(row(`OTLP, sampling ${(Number(ratio) * 100).toFixed(0).padStart(3)} %`, traced[i], untraced));
    });
    console.log(`  OTLP exports received: ${sink.exports()}`);
  } finally {
    sink.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
