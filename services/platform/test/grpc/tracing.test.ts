import { Metadata, type ServiceDefinition, type UntypedServiceImplementation } from '@grpc/grpc-js';
import { context, propagation, trace, type SpanContext } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  InMemorySpanExporter,
  ParentBasedSampler,
  SimpleSpanProcessor,
  TracerProvider,
  type Sampler,
} from '@opentelemetry/sdk-trace';
import { tracedCall, tracedImplementation } from '../../src/grpc/tracing';

const PATH = '/rde.test.v1.TestService/Echo';
const definition = {
  Echo: { path: PATH, requestStream: false, responseStream: false, originalName: 'echo' },
} as unknown as ServiceDefinition;

/** The root decision of the trace a test starts: sampled or not. */
let root: Sampler = new AlwaysOnSampler();
const exporter = new InMemorySpanExporter();
const provider = new TracerProvider({
  sampler: new ParentBasedSampler({ root: { shouldSample: (...args) => root.shouldSample(...args) } }),
  spanProcessors: [new SimpleSpanProcessor({ exporter })],
});

beforeAll(() => {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(provider);
});

afterAll(() => {
  trace.disable();
  context.disable();
  propagation.disable();
});

beforeEach(() => exporter.reset());

/** One call through the client and server wrappers: the span context the handler ran in, and the metadata sent. */
async function callInsideRootSpan(): Promise<{ rootSpan: SpanContext; inHandler?: SpanContext; sent: Metadata }> {
  let inHandler: SpanContext | undefined;
  const server: UntypedServiceImplementation = tracedImplementation(definition, {
    Echo: (_call: unknown, callback: (error: null, reply: object) => void) => {
      inHandler = trace.getSpanContext(context.active());
      callback(null, {});
    },
  });
  const sent = new Metadata();
  const rootSpan = trace.getTracer('test').startSpan('GET /api/v2/keys');
  await context.with(trace.setSpan(context.active(), rootSpan), () =>
    tracedCall(
      PATH,
      sent,
      () => new Promise<void>((resolve) => (server.Echo as Function)({ metadata: sent }, resolve)),
    ),
  );
  rootSpan.end();
  await provider.forceFlush();
  return { rootSpan: rootSpan.spanContext(), inHandler, sent };
}

describe('gRPC spans (decision 0027) only inside sampled traces (decision 0091)', () => {
  test('a sampled trace gets a CLIENT and a SERVER span per call, the server one a child of the client one', async () => {
    root = new AlwaysOnSampler();
    const { rootSpan, inHandler } = await callInsideRootSpan();
    const spans = exporter.getFinishedSpans();
    const client = spans.find((span) => span.name === `grpc.${PATH.slice(1)}` && span.kind === 2)!;
    const server = spans.find((span) => span.name === `grpc.${PATH.slice(1)}` && span.kind === 1)!;
    expect(client.parentSpanContext?.spanId).toBe(rootSpan.spanId);
    expect(server.parentSpanContext?.spanId).toBe(client.spanContext().spanId);
    expect(inHandler?.spanId).toBe(server.spanContext().spanId);
  });

  test('an unsampled trace makes no span; the handler runs in the caller’s trace, still marked not sampled', async () => {
    root = new AlwaysOffSampler();
    const { rootSpan, inHandler, sent } = await callInsideRootSpan();
    expect(exporter.getFinishedSpans()).toEqual([]);
    expect(sent.get('traceparent')).toEqual([`00-${rootSpan.traceId}-${rootSpan.spanId}-00`]);
    expect(inHandler).toMatchObject({ traceId: rootSpan.traceId, spanId: rootSpan.spanId, traceFlags: 0 });
  });
});
