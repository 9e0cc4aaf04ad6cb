/**
 * What tracing costs when it is left on: the authenticated read `GET /api/v2/keys` (bearer
 * resolution through auth, then the keys RPC) for a fixed time, three ways: no exporter (telemetry
 * not started), an OTLP exporter at 10 % sampling (parent-based trace-id ratio, as the chart
 * configures it), and at 100 %. The exporter sends to a local OTLP sink that only counts. Prints
 * requests per second and the ratio to the untraced run; asserts nothing.
 *
 * Distributed mode (RDE_E2E_MODE=distributed with the backends' env) is the fair comparison: in
 * all-in-one mode telemetry also turns the in-process gRPC calls into loopback ones, so the ratio
 * there mixes two costs.
 *
 *   npx tsc -b && RDE_E2E_MODE=distributed npx tsx test/bench/tracing.bench.ts   (also test/bench/run)
 *
 * BENCH_SECONDS (5) per run and BENCH_CONCURRENCY (16 connections) size it.
 */
import { createServer } from 'node:http';
import { mode, startRde, type RunningRde } from '../e2e/harness';
import { requestsPerSecond } from './lib';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
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

/** Requests per second of `GET /api/v2/keys` over SECONDS (autocannon, after a warm-up). */
function keysThroughput(rde: RunningRde): Promise<number> {
  return requestsPerSecond(`${rde.baseUrl}/api/v2/keys`, {
    connections: CONCURRENCY,
    seconds: SECONDS,
    headers: { authorization: `Bearer ${rde.ownerKey}` },
  });
}

async function measure(env: NodeJS.ProcessEnv): Promise<number> {
  const rde = await startRde({ RDE_LOG_LEVEL: 'warn', ...env });
  try {
    return await keysThroughput(rde);
  } finally {
    await rde.stop();
  }
}

async function main(): Promise<void> {
  const sink = await otlpSink();
  const traced = (ratio: string) => ({
    OTEL_EXPORTER_OTLP_ENDPOINT: sink.url,
    OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf',
    OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
    OTEL_TRACES_SAMPLER_ARG: ratio,
    OTEL_METRICS_EXPORTER: 'none',
    OTEL_LOGS_EXPORTER: 'none',
  });
  try {
    console.log(
      `tracing bench: GET /api/v2/keys, ${mode}, ${SECONDS} s per run, ${CONCURRENCY} connections (goal: ≥ 85 % at 10 %)`,
    );
    const untraced = await measure({});
    console.log(`  no exporter           ${untraced.toFixed(0)} req/s`);
    for (const ratio of ['0.1', '1']) {
      const rate = await measure(traced(ratio));
      const share = ((100 * rate) / untraced).toFixed(0);
      console.log(
        `  OTLP, sampling ${(Number(ratio) * 100).toFixed(0).padStart(3)} %  ${rate.toFixed(0)} req/s (${share} % of untraced)`,
      );
    }
    console.log(`  OTLP exports received: ${sink.exports()}`);
  } finally {
    sink.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
