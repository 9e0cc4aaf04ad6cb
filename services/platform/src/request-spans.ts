import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { IncomingHttpHeaders } from 'node:http';

/**
 * The gateway's SERVER span per HTTP request (decision 0027), made by our own hooks rather than the
 * http and fastify auto-instrumentations, which do their work (wrapping, attributes, a span per
 * hook) for every request whether it is sampled or not. With no tracer provider registered
 * (telemetry off) every call here is the API's no-op.
 */
const tracer = trace.getTracer('rde-http');

export interface RequestSpan {
  /** Runs `work` inside the request's context, so the calls it makes continue the trace. */
  run<T>(work: () => T): T;
  /** Ends the span with the answer's status. */
  end(statusCode: number): void;
}

/** Starts the span of a request to `route` (its template, or undefined when no route matched), child of the caller's `traceparent`. */
export function startRequestSpan(method: string, route: string | undefined, headers: IncomingHttpHeaders): RequestSpan {
  const parent = propagation.extract(ROOT_CONTEXT, headers);
  const span = tracer.startSpan(
    route ? `${method} ${route}` : method,
    { kind: SpanKind.SERVER, attributes: { 'http.request.method': method, ...(route && { 'http.route': route }) } },
    parent,
  );
  const active = trace.setSpan(parent, span);
  return {
    run: (work) => context.with(active, work),
    end: (statusCode) => {
      span.setAttribute('http.response.status_code', statusCode);
      if (statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    },
  };
}
