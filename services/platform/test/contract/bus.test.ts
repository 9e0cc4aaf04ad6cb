import { join } from 'node:path';
import { KafkaBus } from '../../src/adapters/kafka/bus';
import { InMemoryBus, InMemoryBusLog } from '../../src/adapters/memory/bus';
import { describeBusContract } from './bus.contract';
import { HANDLED } from './children/signals';
import { killHard, spawnUntilLine } from './support/child';
import { describeWithEnv, testLogger } from './support/real-backends';
import { waitUntil } from './support/wait';

jest.setTimeout(60_000);

const quickRetries = { initialMs: 50, maxMs: 500 };

describeBusContract('in-memory', async () => {
  const log = new InMemoryBusLog();
  const bus = new InMemoryBus(log, { logger: testLogger, backoff: quickRetries });
  return {
    bus,
    async dieAfterHandling(topic, group, effects) {
      // Another module's bus over the same log: its handler fails after the effect, and it is stopped
      // while waiting to retry, so the message stays uncommitted.
      const doomed = new InMemoryBus(log, { logger: testLogger, backoff: { initialMs: 60_000, maxMs: 60_000 } });
      let handled = () => undefined as void;
      const done = new Promise<void>((resolve) => (handled = resolve));
      await doomed.subscribe({ topic, group }, async (message) => {
        await effects.deliver(message.value.toString());
        handled();
        throw new Error('dies before the commit');
      });
      await done;
      await doomed.close();
    },
    close: () => bus.close(),
  };
});

describe('in-memory retention', () => {
  it('drops what every group has handled: a group joining later from the beginning starts after it', async () => {
    const bus = new InMemoryBus(new InMemoryBusLog(), { logger: testLogger, backoff: quickRetries });
    const handled: string[] = [];
    await bus.subscribeBatches({ topic: 'settlements', group: 'billing' }, async (messages) => {
      handled.push(...messages.map((message) => message.value.toString()));
    });
    const values = Array.from({ length: 2_500 }, (_, index) => `m${index}`);
    await bus.publish(
      'settlements',
      values.map((value) => ({ key: 'ws', value: Buffer.from(value) })),
    );
    await waitUntil(() => handled.length === values.length);

    const late: string[] = [];
    await bus.subscribe({ topic: 'settlements', group: 'audit' }, async (message) => {
      late.push(message.value.toString());
    });
    await waitUntil(() => late.at(-1) === values.at(-1));
    await bus.close();
    expect(handled).toEqual(values);
    expect(late.length).toBeLessThan(values.length);
    expect(late).toEqual(values.slice(values.length - late.length));
  });
});

describe('in-memory delivery', () => {
  it('reaches a waiting consumer on a later turn of the event loop, never inside the publishing chain of promises', async () => {
    const bus = new InMemoryBus(new InMemoryBusLog(), { logger: testLogger, backoff: quickRetries });
    const handled: string[] = [];
    await bus.subscribe({ topic: 'settlements', group: 'billing' }, async (message) => {
      handled.push(message.value.toString());
    });
    await new Promise((resolve) => setImmediate(resolve)); // the consumer now waits for an append
    await bus.publish('settlements', [{ key: 'ws', value: Buffer.from('charge') }]);
    // The publisher's own continuation (a request answering its client) runs first, however long its chain.
    for (let step = 0; step < 100; step++) await Promise.resolve();
    expect(handled).toEqual([]);
    await waitUntil(() => handled.length === 1);
    await bus.close();
    expect(handled).toEqual(['charge']);
  });
});

describeWithEnv('Kafka', ['RDE_KAFKA_BROKERS'], ({ RDE_KAFKA_BROKERS }) => {
  describeBusContract(RDE_KAFKA_BROKERS, async () => {
    const brokers = RDE_KAFKA_BROKERS.split(',');
    const bus = new KafkaBus({
      brokers,
      clientId: 'contract',
      logger: testLogger,
      sessionTimeoutMs: 6_000,
      backoff: quickRetries,
    });
    return {
      bus,
      async dieAfterHandling(topic, group, effects) {
        const script = join(__dirname, 'children', 'die-after-handling.ts');
        const child = await spawnUntilLine(script, [RDE_KAFKA_BROKERS, topic, group, effects.dir], HANDLED);
        await killHard(child);
      },
      close: () => bus.close(),
    };
  });
});
