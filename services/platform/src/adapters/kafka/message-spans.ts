import { context, propagation, SpanKind, trace, type Span } from '@opentelemetry/api';
import type { DeliveredMessage } from '../../ports/bus';

const tracer = trace.getTracer('rde-bus');

/**
 * Runs `handle` over a chunk of messages inside one CONSUMER span per message, each a child of the
 * context its producer put in the headers: a batch is handled at once, yet every message's trace
 * still reaches the consumer that applied it (kafkajs' instrumentation only links batch spans).
 * Without a registered tracer provider the spans are no-ops.
 */
export async function withMessageSpans<T>(messages: readonly DeliveredMessage[], handle: () => Promise<T>): Promise<T> {
  const spans: Span[] = messages.map((message) =>
    tracer.startSpan(
      `${message.topic} process`,
      {
        kind: SpanKind.CONSUMER,
        attributes: {
          'messaging.system': 'kafka',
          'messaging.destination.name': message.topic,
          'messaging.kafka.destination.partition': message.partition,
          'messaging.kafka.message.offset': message.offset,
        },
      },
      propagation.extract(context.active(), message.headers ?? {}),
    ),
  );
  try {
    return await handle();
  } finally {
    for (const span of spans) span.end();
  }
}
