import { AsyncLocalStorage } from 'node:async_hooks';
import {
  context,
  propagation,
  ROOT_CONTEXT,
  trace,
  type Context,
  type ContextManager,
  type TextMapPropagator,
} from '@opentelemetry/api';
import pino from 'pino';
import { createBackends } from '../src/adapters';
import { ManualClock } from '../src/clock';
import { OutboxRelay, outboxPush, type WithOutbox } from '../src/outbox';

/** What the SDK installs when telemetry is on: an async-local context and W3C `traceparent` headers. */
class AsyncLocalContext implements ContextManager {
  private readonly storage = new AsyncLocalStorage<Context>();
  active = () => this.storage.getStore() ?? ROOT_CONTEXT;
  with<A extends unknown[], F extends (...args: A) => ReturnType<F>>(
    ctx: Context,
    fn: F,
    thisArg?: ThisParameterType<F>,
    ...args: A
  ) {
    return this.storage.run(ctx, () => fn.apply(thisArg, args));
  }
  bind = <T>(_ctx: Context, target: T) => target;
  enable = () => this;
  disable = () => this;
}

const traceparent: TextMapPropagator = {
  inject(ctx, carrier, setter) {
    const span = trace.getSpanContext(ctx);
    if (span) setter.set(carrier, 'traceparent', `00-${span.traceId}-${span.spanId}-01`);
  },
  extract(ctx, carrier, getter) {
    const [, traceId, spanId] = String(getter.get(carrier, 'traceparent') ?? '').split('-');
    return traceId && spanId ? trace.setSpanContext(ctx, { traceId, spanId, traceFlags: 1, isRemote: true }) : ctx;
  },
  fields: () => ['traceparent'],
};

const WRITER = { traceId: 'a'.repeat(32), spanId: 'b'.repeat(16), traceFlags: 1 };

describe('outbox trace context', () => {
  beforeAll(() => {
    context.setGlobalContextManager(new AsyncLocalContext());
    propagation.setGlobalPropagator(traceparent);
  });
  afterAll(() => {
    context.disable();
    propagation.disable();
  });

  test('an event published by a later relay pass continues the trace that wrote it', async () => {
    const clock = new ManualClock(0);
    const backends = await createBackends({ kind: 'memory', clock });
    const runs = (await backends.documentStore('trace_test')).collection<WithOutbox<{ _id: string }>>('runs');
    const bus = await backends.bus('trace-test');
    const published: (string | undefined)[] = [];
    const observed = {
      ...bus,
      publish: async (...args: Parameters<typeof bus.publish>) => {
        published.push(trace.getSpanContext(context.active())?.traceId);
        return bus.publish(...args);
      },
    };
    const event = { id: 'e1', topic: 'settlements', key: 'ws-1', value: Buffer.from('x') };

    await context.with(trace.setSpanContext(ROOT_CONTEXT, WRITER), () =>
      runs.insertOne({ _id: 'run-1', _outbox: outboxPush([event], clock)._outbox.$each }),
    );
    const stored = await runs.findOne({ _id: 'run-1' });
    expect(stored!._outbox![0]!.headers).toEqual({ traceparent: `00-${WRITER.traceId}-${WRITER.spanId}-01` });

    // The relay runs outside any request, as a poll pass after a restart would.
    const relay = new OutboxRelay({
      collections: [runs],
      bus: observed,
      logger: pino({ level: 'silent' }),
      pollIntervalMs: 1000,
    });
    expect(await relay.drainOnce()).toBe(1);
    expect(published).toEqual([WRITER.traceId]);
    await backends.close();
  });
});
