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
    instrumentations: [
      onlyInSampledTraces(new MongoDBInstrumentation()),
      new IORedisInstrumentation(),
      new KafkaJsInstrumentation(),
    ],
  });
  sdk.start();
  return { enabled: true, shutdown: () => sdk.shutdown() };
}

/** The one method of the MongoDB instrumentation that decides whether a command gets a span. */
export interface SkipCheck {
  _checkSkipInstrumentation?: (active: { isRecording(): boolean } | undefined) => boolean;
}

/**
 * The MongoDB instrumentation skips a command only when no span is active. Inside a trace that was
 * not sampled it still serialises each command into attributes and starts a span nobody records:
 * a tenth of a store read's CPU (decision 0091). Its check, a private method, is replaced so that
 * those commands are skipped too. `test/telemetry-mongodb.test.ts` fails if a release renames it.
 */
export function onlyInSampledTraces<T extends object>(instrumentation: T): T {
  const check = instrumentation as SkipCheck;
  if (typeof check._checkSkipInstrumentation === 'function') {
    check._checkSkipInstrumentation = (active) => active === undefined || !active.isRecording();
  }
  return instrumentation;
}
