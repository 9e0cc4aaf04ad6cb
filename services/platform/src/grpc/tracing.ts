import {
  context,
  propagation,
  SpanKind,
  SpanStatusCode,
  trace,
  TraceFlags,
  type Context,
  type Span,
  type TextMapGetter,
  type TextMapSetter,
} from '@opentelemetry/api';
import {
  status as GrpcStatus,
  type Metadata,
  type ServiceDefinition,
  type ServiceError,
  type UntypedHandleCall,
  type UntypedServiceImplementation,
} from '@grpc/grpc-js';

/**
 * Our own gRPC spans (decision 0027): one CLIENT span around each call and one SERVER span around
 * each handler, named `grpc.<package.Service>/<Method>` as the OpenTelemetry convention names them,
 * with the context carried in the call's metadata (`traceparent`). They replace the gRPC
 * auto-instrumentation, which patches grpc-js and pays for every call whether it is sampled or not.
 * With no tracer provider registered (telemetry off) the API is a no-op and nothing is injected.
 * Inside a trace that was not sampled no span is made at all (decision 0091): the caller's context,
 * with its trace id and its "not sampled" flag, travels on as it came, since a child of an unsampled
 * span is never recorded; making one per hop cost every unsampled request its ids and wrappers.
 */
const tracer = trace.getTracer('rde-grpc');

const metadataGetter: TextMapGetter<Metadata> = {
  keys: (metadata) => Object.keys(metadata.getMap()),
  get: (metadata, key) => metadata.get(key).map(String),
};

const metadataSetter: TextMapSetter<Metadata> = {
  set: (metadata, key, value) => metadata.set(key, value),
};

/** The span name of an RPC from its path (`/rde.auth.v1.AuthService/ListKeys`). */
const spanName = (path: string) => `grpc.${path.slice(1)}`;

/** Ends a span with the call's gRPC status (an error status for anything but OK). */
function endWith(span: Span, code: GrpcStatus, message?: string): void {
  span.setAttribute('rpc.grpc.status_code', code);
  if (code !== GrpcStatus.OK) span.setStatus({ code: SpanStatusCode.ERROR, message });
  span.end();
}

/**
 * Runs `call` inside a CLIENT span whose context travels in `metadata`; the span ends when the
 * returned promise settles. For server streams (which settle later) only the context is sent.
 */
export function tracedCall<T>(path: string, metadata: Metadata, call: () => Promise<T>): Promise<T> {
  if (notSampled(context.active())) {
    propagation.inject(context.active(), metadata, metadataSetter);
    return call();
  }
  const span = tracer.startSpan(spanName(path), { kind: SpanKind.CLIENT, attributes: { 'rpc.system': 'grpc' } });
  const active = trace.setSpan(context.active(), span);
  propagation.inject(active, metadata, metadataSetter);
  return context.with(active, call).then(
    (response) => {
      endWith(span, GrpcStatus.OK);
      return response;
    },
    (error: unknown) => {
      endWith(span, (error as Partial<ServiceError>).code ?? GrpcStatus.UNKNOWN, String(error));
      throw error;
    },
  );
}

/** Whether `ctx` is inside a trace whose sampler said no: its spans and their children are never recorded. */
function notSampled(ctx: Context): boolean {
  const spanContext = trace.getSpanContext(ctx);
  return spanContext !== undefined && (spanContext.traceFlags & TraceFlags.SAMPLED) === 0;
}

/** Sends the active context with a call that has no span of its own (a server stream, a health probe). */
export function withTraceContext(metadata: Metadata): Metadata {
  propagation.inject(context.active(), metadata, metadataSetter);
  return metadata;
}

/** The caller's context, from the metadata a call arrived with. */
function callerContext(metadata: Metadata): Context {
  return propagation.extract(context.active(), metadata, metadataGetter);
}

type UnaryHandler = (
  call: { metadata: Metadata },
  callback: (error: Partial<ServiceError> | null, ...rest: unknown[]) => void,
) => void;
type StreamHandler = (call: { metadata: Metadata; once(event: string, listener: () => void): unknown }) => void;

/**
 * Wraps every handler of a service, ours or a library's (health, reflection), in a SERVER span,
 * child of the caller's span, and runs it inside that span's context so its own calls, writes and
 * events continue the trace.
 */
export function tracedImplementation(
  definition: ServiceDefinition,
  implementation: UntypedServiceImplementation,
): UntypedServiceImplementation {
  const traced: UntypedServiceImplementation = {};
  for (const [method, { path, requestStream, responseStream, originalName }] of Object.entries(definition)) {
    // grpc-js finds a handler under the method's key or its original name (a library's `check` for `Check`).
    const handler = implementation[method] ?? (originalName === undefined ? undefined : implementation[originalName]);
    if (!handler) continue;
    const start = (metadata: Metadata): { span?: Span; active: Context } => {
      const parent = callerContext(metadata);
      if (notSampled(parent)) return { active: parent };
      const span = tracer.startSpan(
        spanName(path),
        { kind: SpanKind.SERVER, attributes: { 'rpc.system': 'grpc' } },
        parent,
      );
      return { span, active: trace.setSpan(parent, span) };
    };
    if (!requestStream && !responseStream) {
      traced[method] = ((call, callback) => {
        const { span, active } = start(call.metadata);
        context.with(active, () =>
          (handler as UnaryHandler)(call, (error, ...rest) => {
            if (span) endWith(span, error ? (error.code ?? GrpcStatus.UNKNOWN) : GrpcStatus.OK, error?.details);
            callback(error, ...rest);
          }),
        );
      }) as UnaryHandler as UntypedHandleCall;
    } else {
      traced[method] = ((call) => {
        const { span, active } = start(call.metadata);
        let ended = false;
        const end = (code: GrpcStatus) => {
          if (ended || !span) return;
          ended = true;
          endWith(span, code);
        };
        call.once('finish', () => end(GrpcStatus.OK));
        call.once('error', () => end(GrpcStatus.UNKNOWN));
        call.once('cancelled', () => end(GrpcStatus.CANCELLED));
        context.with(active, () => (handler as StreamHandler)(call));
      }) as StreamHandler as UntypedHandleCall;
    }
  }
  return traced;
}
