/**
 * OpenTelemetry, started before anything else is loaded (the binary imports this file first) so
 * the drivers' instrumentations can patch MongoDB, Redis and Kafka as they load.
 * The standard OTEL_* variables configure it; with no exporter configured nothing is even loaded,
 * so "off" costs nothing.
 */
export interface Telemetry {
  readonly enabled: boolean;
  shutdown(): Promise<void>;
}

export function telemetryEnabled(env: NodeJS.ProcessEnv): boolean {
  if (env.OTEL_SDK_DISABLED === 'true') return false;
  const exporter = env.OTEL_TRACES_EXPORTER;
  if (exporter === 'none') return false;
  return Boolean(exporter || env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
}

export function startTelemetry(serviceName: string, env: NodeJS.ProcessEnv = process.env): Telemetry {
  if (!telemetryEnabled(env)) return { enabled: false, shutdown: async () => undefined };
  // Loaded only when telemetry is on.
  const { NodeSDK } = require('@opentelemetry/sdk-node') as typeof import('@opentelemetry/sdk-node');
  const { MongoDBInstrumentation } =
    require('@opentelemetry/instrumentation-mongodb') as typeof import('@opentelemetry/instrumentation-mongodb');
  const { IORedisInstrumentation } =
    require('@opentelemetry/instrumentation-ioredis') as typeof import('@opentelemetry/instrumentation-ioredis');
  const { KafkaJsInstrumentation } =
    require('@opentelemetry/instrumentation-kafkajs') as typeof import('@opentelemetry/instrumentation-kafkajs');
  const sdk = new NodeSDK({
    serviceName: env.OTEL_SERVICE_NAME ?? serviceName,
    // HTTP and gRPC spans are our own hooks (request-spans.ts, grpc/tracing.ts); logs carry the
    // trace ids from the logger's mixin. The drivers' spans come from their instrumentations.
    instrumentations: [new MongoDBInstrumentation(), new IORedisInstrumentation(), new KafkaJsInstrumentation()],
  });
  sdk.start();
  return { enabled: true, shutdown: () => sdk.shutdown() };
}
