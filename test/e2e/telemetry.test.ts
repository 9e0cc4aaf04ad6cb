import { mode, startRde, waitUntil, type RunningRde } from './harness';

jest.setTimeout(120_000);

interface Span {
  traceId: string;
  name: string;
  kind: number;
}

/** Spans as the console exporter prints them (util.inspect blocks, top-level keys indented by two). */
function spansIn(output: string): Span[] {
  return output
    .split(/\n}\n/)
    .map((block) => ({
      traceId: /^ {2}traceId: '(\w+)'/m.exec(block)?.[1] ?? '',
      name: /^ {2}name: '([^']*)'/m.exec(block)?.[1] ?? '',
      kind: Number(/^ {2}kind: (\d)/m.exec(block)?.[1] ?? -1),
    }))
    .filter((span) => span.traceId && span.name);
}

// OpenTelemetry SpanKind: 1 = server, 2 = client.
const SERVER = 1;

describe(`telemetry (${mode})`, () => {
  let rde: RunningRde;

  beforeAll(async () => {
    rde = await startRde({
      OTEL_TRACES_EXPORTER: 'console',
      OTEL_METRICS_EXPORTER: 'none',
      OTEL_LOGS_EXPORTER: 'none',
    });
  });

  afterAll(async () => {
    await rde?.stop();
  });

  test('one trace runs from the HTTP request through the gateway into every downstream gRPC server', async () => {
    await fetch(`${rde.baseUrl}/ready`);
    let trace: Span[] = [];
    await waitUntil(async () => {
      const spans = spansIn(rde.logs());
      const request = spans.filter((s) => s.name === 'GET /ready').pop();
      trace = request ? spans.filter((s) => s.traceId === request.traceId) : [];
      return trace.filter((s) => s.kind === SERVER && s.name.includes('Health/Check')).length >= 7;
    }, 15_000);
    expect(trace.map((s) => s.name)).toEqual(
      expect.arrayContaining(['GET /ready', 'grpc.grpc.health.v1.Health/Check']),
    );
  });
});
