import pino from 'pino';
import { trace } from '@opentelemetry/api';

export type Logger = pino.Logger;

/** JSON logs; every line carries the active trace and span ids so logs join traces. */
export function createLogger(name: string, level = process.env.RDE_LOG_LEVEL ?? 'info'): Logger {
  return pino({
    name,
    level,
    base: { service: name },
    mixin() {
      const span = trace.getActiveSpan();
      if (!span) return {};
      const { traceId, spanId } = span.spanContext();
      return { trace_id: traceId, span_id: spanId };
    },
  });
}
