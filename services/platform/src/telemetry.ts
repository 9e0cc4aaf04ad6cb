/**
 * OpenTelemetry, started before anything else is loaded (the binary imports this file first) so
 * the instrumentations can patch http, gRPC, fastify, pino, MongoDB, Redis and Kafka as they load.
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
  const { HttpInstrumentation } =
    require('@opentelemetry/instrumentation-http') as typeof import('@opentelemetry/instrumentation-http');
  const { GrpcInstrumentation } =
    require('@opentelemetry/instrumentation-grpc') as typeof import('@opentelemetry/instrumentation-grpc');
  const { PinoInstrumentation } =
    require('@opentelemetry/instrumentation-pino') as typeof import('@opentelemetry/instrumentation-pino');
  const { MongoDBInstrumentation } =
    require('@opentelemetry/instrumentation-mongodb') as typeof import('@opentelemetry/instrumentation-mongodb');
  const { IORedisInstrumentation } =
    require('@opentelemetry/instrumentation-ioredis') as typeof import('@opentelemetry/instrumentation-ioredis');
  const { KafkaJsInstrumentation } =
    require('@opentelemetry/instrumentation-kafkajs') as typeof import('@opentelemetry/instrumentation-kafkajs');
  const FastifyOtelInstrumentation = require('@fastify/otel') as typeof import('@fastify/otel').default;
  const sdk = new NodeSDK({
    serviceName: env.OTEL_SERVICE_NAME ?? serviceName,
    instrumentations: [
      new HttpInstrumentation(),
      new GrpcInstrumentation(),
      new PinoInstrumentation(),
      new MongoDBInstrumentation(),
      new IORedisInstrumentation(),
      new KafkaJsInstrumentation(),
      new FastifyOtelInstrumentation({ registerOnInitialization: true }),
    ],
  });
  sdk.start();
  return { enabled: true, shutdown: () => sdk.shutdown() };
}
