import { createServer, type Server } from 'node:http';
import { collectDefaultMetrics, Gauge, Histogram, register } from 'prom-client';
import { listenOn } from './config';
import type { Logger } from './logger';

/**
 * Prometheus metrics (prom-client), one registry per process. Every module in the process adds
 * its series here; `rde start` serves them on RDE_METRICS_PORT. Names follow Prometheus' base
 * units (seconds) and RED: a duration histogram's `_count` is the rate, its `code`/`status` label
 * the errors.
 */
export { Counter, Gauge, Histogram } from 'prom-client';
export const metricsRegistry = register;

const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/**
 * The process's metric of this name, created on first use: modules in one process (all-in-one,
 * tests) share it, and the first one's `collect` callback is the one that reports.
 */
export function processMetric<M>(name: string, create: () => M): M {
  return (register.getSingleMetric(name) as M | undefined) ?? create();
}

/** A request-duration histogram in seconds, with the latency buckets every server shares. */
function durationHistogram<L extends string>(name: string, help: string, labelNames: readonly L[]) {
  return processMetric(name, () => new Histogram<L>({ name, help, labelNames, buckets: LATENCY_BUCKETS }));
}

export const httpServerDuration = durationHistogram(
  'rde_http_server_duration_seconds',
  'HTTP requests served, by route template, method and status',
  ['route', 'method', 'status'],
);

export const grpcServerDuration = durationHistogram(
  'rde_grpc_server_duration_seconds',
  'gRPC calls served, by service, method and status code',
  ['service', 'method', 'code'],
);

export const kafkaConsumerLag = processMetric(
  'rde_kafka_consumer_lag',
  () =>
    new Gauge({
      name: 'rde_kafka_consumer_lag',
      help: 'Messages behind the partition end after the last batch this consumer handled',
      labelNames: ['group', 'topic', 'partition'] as const,
    }),
);

export const outboxPendingEvents = processMetric(
  'rde_outbox_pending_events',
  () =>
    new Gauge({
      name: 'rde_outbox_pending_events',
      help: 'Events written to an outbox and not yet published, as the relay last saw them',
      labelNames: ['collection'] as const,
    }),
);

export const outboxOldestEventAge = processMetric(
  'rde_outbox_oldest_event_age_seconds',
  () =>
    new Gauge({
      name: 'rde_outbox_oldest_event_age_seconds',
      help: 'Age of the oldest unpublished outbox event (0 when none waits)',
      labelNames: ['collection'] as const,
    }),
);

export interface MetricsServer {
  readonly port: number;
  close(): Promise<void>;
}

/** Serves `GET /metrics` (Prometheus text format) with the process's default and RDE metrics. */
export async function startMetricsServer(options: {
  port: number;
  host: string;
  logger: Logger;
}): Promise<MetricsServer> {
  if (!register.getSingleMetric('process_cpu_seconds_total')) collectDefaultMetrics();
  const server: Server = createServer((request, response) => {
    if (request.method !== 'GET' || request.url?.split('?')[0] !== '/metrics') {
      response.writeHead(404).end();
      return;
    }
    register.metrics().then(
      (text) => response.writeHead(200, { 'content-type': register.contentType }).end(text),
      (error: unknown) => {
        options.logger.error({ err: error }, 'metrics collection failed');
        response.writeHead(500).end();
      },
    );
  });
  await listenOn(
    'RDE_METRICS_PORT',
    options.port,
    () =>
      new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(options.port, options.host, resolve);
      }),
  );
  const { port } = server.address() as { port: number };
  options.logger.info({ port }, 'metrics listening');
  return { port, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
