import pino from 'pino';
import pretty from 'pino-pretty';
import { trace } from '@opentelemetry/api';

export type Logger = pino.Logger;

/**
 * JSON logs, pretty on a terminal (a person reads those); every line carries the active trace and
 * span ids so logs join traces.
 */
export function createLogger(name: string, level = process.env.RDE_LOG_LEVEL ?? 'info'): Logger {
  // Synchronous: a worker-thread transport would lose the last lines of a process that exits.
  const destination = process.stdout.isTTY ? pretty({ sync: true }) : undefined;
  const options: pino.LoggerOptions = {
    name,
    level,
    base: { service: name },
    mixin() {
      const span = trace.getActiveSpan();
      if (!span) return {};
      const { traceId, spanId } = span.spanContext();
      return { trace_id: traceId, span_id: spanId };
    },
  };
  return destination ? pino(options, destination) : pino(options);
}
