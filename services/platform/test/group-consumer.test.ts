import pino from 'pino';
import { billingEvents } from '@rde/proto';
import { createBackends, GroupConsumer, ManualClock, PeriodicPass, type Bus } from '../src';

const logger = pino({ level: 'silent' });
const TOPIC = 'billing.settlements';
const settlement = (settlementId: string) =>
  Buffer.from(billingEvents.Settlement.encode(billingEvents.Settlement.fromPartial({ settlementId })).finish());

/** Resolves once `condition` holds; the test's own timeout bounds it. */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
}

describe('GroupConsumer', () => {
  test('hands each message on decoded, skipping one that can never be read', async () => {
    const backends = createBackends({ kind: 'memory', clock: new ManualClock() });
    const bus = await backends.bus('billing');
    const seen: string[] = [];
    const consumer = new GroupConsumer(bus, logger, {
      group: 'billing',
      topic: TOPIC,
      message: billingEvents.Settlement,
      what: 'settlement',
    });
    await consumer.start(async (decoded) => void seen.push(decoded.settlementId));
    await bus.publish(TOPIC, [
      { key: 'ws_1', value: settlement('s1') },
      { key: 'ws_1', value: Buffer.from([0xff, 0xff, 0xff]) },
      { key: 'ws_1', value: settlement('s2') },
    ]);
    await until(() => seen.length === 2);
    expect(seen).toEqual(['s1', 's2']);
    await consumer.stop();
    await backends.close();
  });

  test('joins once the broker stops refusing, and is stopped while still trying', async () => {
    const backends = createBackends({ kind: 'memory', clock: new ManualClock() });
    const real = await backends.bus('billing');
    let refusals = 1;
    const bus: Bus = {
      ...real,
      publish: (topic, messages) => real.publish(topic, messages),
      subscribe: async (options, handler) => {
        if (refusals-- > 0) throw new Error('topic is being created');
        return real.subscribe(options, handler);
      },
    };
    const seen: string[] = [];
    const options = { group: 'billing', topic: TOPIC, message: billingEvents.Settlement, what: 'settlement' };
    const consumer = new GroupConsumer(bus, logger, options);
    await consumer.start(async (decoded) => void seen.push(decoded.settlementId));
    await bus.publish(TOPIC, [{ key: 'ws_1', value: settlement('s1') }]);
    await until(() => seen.length === 1);
    await consumer.stop();

    refusals = Infinity;
    const stopped = new GroupConsumer(bus, logger, options);
    const joining = stopped.start(async () => undefined);
    await stopped.stop();
    await expect(joining).resolves.toBeUndefined();
    await backends.close();
  });
});

describe('PeriodicPass', () => {
  afterEach(() => jest.useRealTimers());

  test('a failed pass is reported and the next one still runs; none runs after stop', async () => {
    jest.useFakeTimers();
    let passes = 0;
    const failures: unknown[] = [];
    const periodic = new PeriodicPass(
      1_000,
      async () => {
        passes += 1;
        if (passes === 1) throw new Error('store down');
      },
      (error) => failures.push(error),
    );
    periodic.start();
    expect(passes).toBe(0);
    await jest.advanceTimersByTimeAsync(1_000);
    expect(failures).toEqual([new Error('store down')]);
    await jest.advanceTimersByTimeAsync(1_000);
    expect(passes).toBe(2);
    periodic.stop();
    await jest.advanceTimersByTimeAsync(10_000);
    expect(passes).toBe(2);
  });
});
