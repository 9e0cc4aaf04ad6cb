/**
 * What tracing costs when it is left on: the authenticated read `GET /api/v2/keys` (bearer
 * resolution through auth, then the keys RPC) for a fixed time, all-in-one, three ways: no
 * exporter (telemetry not started), an OTLP exporter at 10 % sampling (parent-based trace-id ratio,
 * as the chart configures it), and at 100 %. The exporter sends to a local OTLP sink that only
 * counts. Prints requests per second and the ratio to the untraced run; asserts nothing.
 *
 *   npx tsc -b && npx tsx test/bench/tracing.bench.ts
 *
 * BENCH_SECONDS (5) per run and BENCH_CONCURRENCY (16) size it.
 */
import { createServer } from 'node:http';
import { startRde, type RunningRde } from '../e2e/harness';

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

/** Requests per second of `GET /api/v2/keys` over SECONDS, after a short warm-up. */
async function keysThroughput(rde: RunningRde): Promise<number> {
  const read = async () => {
    const response = await fetch(`${rde.baseUrl}/api/v2/keys`, {
      headers: { authorization: `Bearer ${rde.ownerKey}` },
    });
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`GET /api/v2/keys answered ${response.status}`);
  };
  const loop = async (until: number) => {
    let done = 0;
    while (performance.now() < until) {
      await read();
      done += 1;
    }
    return done;
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, () => loop(performance.now() + 1_000)));
  const began = performance.now();
  const counts = await Promise.all(Array.from({ length: CONCURRENCY }, () => loop(began + SECONDS * 1_000)));
  return counts.reduce((sum, n) => sum + n, 0) / ((performance.now() - began) / 1_000);
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
    console.log(`tracing bench: GET /api/v2/keys, all-in-one, ${SECONDS} s per run, concurrency ${CONCURRENCY}`);
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
