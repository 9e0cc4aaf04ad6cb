import type { Bus, DeliveredMessage } from '../../src/ports/bus';
import { collect } from './support/collect';
import { EffectLog } from './support/effects';
import { uniqueName } from './support/real-backends';
import { sleep, waitUntil } from './support/wait';

export interface BusFixture {
  bus: Bus;
  /**
   * Starts a consumer of `topic` in `group` elsewhere (another process for a real broker) that
   * handles the next message, applies its effect to `effects`, and dies before committing it.
   * Resolves once that consumer is dead.
   */
  dieAfterHandling(topic: string, group: string, effects: EffectLog): Promise<void>;
  close(): Promise<void>;
}

const bytes = (text: string) => Buffer.from(text);
const summary = (messages: DeliveredMessage[]) => messages.map((m) => `${m.key}:${m.value.toString()}`);

/** What every bus adapter must do; each test uses topics and groups of its own. */
export function describeBusContract(name: string, fixture: () => Promise<BusFixture>): void {
  describe(`bus contract: ${name}`, () => {
    let subject: BusFixture;
    let bus: Bus;

    beforeAll(async () => {
      subject = await fixture();
      bus = subject.bus;
      await bus.ping();
    });
    afterAll(() => subject.close());

    it('delivers key, value and headers', async () => {
      const topic = uniqueName('topic');
      const consumer = await collect(bus, topic, uniqueName('group'));

      await bus.publish(topic, [
        {
          key: 'ws-1',
          value: bytes('created'),
          headers: { 'content-type': 'rde.v1.Created', traceparent: '00-ab-cd-01' },
        },
        { key: 'ws-1', value: Buffer.from([0, 255, 1]) },
      ]);

      const [first, second] = await consumer.waitFor(2);
      expect(first).toMatchObject({
        topic,
        key: 'ws-1',
        headers: { 'content-type': 'rde.v1.Created', traceparent: '00-ab-cd-01' },
      });
      expect(first!.value.toString()).toBe('created');
      expect(typeof first!.offset).toBe('string');
      expect([...second!.value]).toEqual([0, 255, 1]);
      expect(second!.headers).toBeUndefined();
      await consumer.subscription.stop();
    });

    it('creates topics ahead of use, and creating them again changes nothing', async () => {
      const topic = uniqueName('topic');
      const spec = { topic, partitions: 2, replicationFactor: 1 };
      await bus.ensureTopics([spec]);
      await bus.ensureTopics([spec]);
      const consumer = await collect(bus, topic, uniqueName('group'));

      await bus.publish(topic, [{ key: 'ws-1', value: bytes('after migrate') }]);

      const [delivered] = await consumer.waitFor(1);
      expect(delivered!.value.toString()).toBe('after migrate');
      await consumer.subscription.stop();
    });

    it('gives every group every message, in order per key', async () => {
      const topic = uniqueName('topic');
      const billing = await collect(bus, topic, uniqueName('billing'));
      const dataset = await collect(bus, topic, uniqueName('dataset'));
      const published = ['a:1', 'b:1', 'a:2', 'b:2', 'a:3'];

      await bus.publish(
        topic,
        published.map((text) => ({ key: text.split(':')[0]!, value: bytes(text.split(':')[1]!) })),
      );

      for (const group of [billing, dataset]) {
        const received = summary(await group.waitFor(published.length));
        expect([...received].sort()).toEqual([...published].sort());
        expect(received.filter((text) => text.startsWith('a:'))).toEqual(['a:1', 'a:2', 'a:3']);
        await group.subscription.stop();
      }
    });

    it('retries a failing handler with backoff and never skips its message', async () => {
      const topic = uniqueName('topic');
      const attempts: string[] = [];
      const subscription = await bus.subscribe({ topic, group: uniqueName('group') }, async (message) => {
        attempts.push(message.value.toString());
        if (message.value.toString() === 'm1' && attempts.length < 3) throw new Error('store briefly down');
      });

      await bus.publish(topic, [
        { key: 'ws', value: bytes('m1') },
        { key: 'ws', value: bytes('m2') },
      ]);

      await waitUntil(() => attempts.length >= 4);
      expect(attempts).toEqual(['m1', 'm1', 'm1', 'm2']);
      await subscription.stop();
    });

    it('commits after handling: the next consumer of the group resumes after the last handled message', async () => {
      const topic = uniqueName('topic');
      const group = uniqueName('group');
      const before = await collect(bus, topic, group);
      await bus.publish(topic, [
        { key: 'ws', value: bytes('m1') },
        { key: 'ws', value: bytes('m2') },
      ]);
      await before.waitFor(2);
      await before.subscription.stop();

      await bus.publish(topic, [{ key: 'ws', value: bytes('m3') }]);
      const after = await collect(bus, topic, group);

      expect(summary(await after.waitFor(1))).toEqual(['ws:m3']);
      await sleep(1_000); // nothing else may follow
      expect(summary(after.messages)).toEqual(['ws:m3']);
      await after.subscription.stop();
    });

    it('redelivers a message whose consumer died before committing; an idempotent handler applies it once', async () => {
      const topic = uniqueName('topic');
      const group = uniqueName('group');
      const effects = await EffectLog.create();
      await bus.publish(topic, [{ key: 'ws', value: bytes('charge-1') }]);

      await subject.dieAfterHandling(topic, group, effects);
      expect(await effects.deliveries()).toEqual(['charge-1']);

      const successor = await bus.subscribe({ topic, group }, (message) => effects.deliver(message.value.toString()));
      await waitUntil(async () => (await effects.deliveries()).length >= 2);
      await successor.stop();

      expect(await effects.deliveries()).toEqual(['charge-1', 'charge-1']);
      expect(await effects.effects()).toEqual(['charge-1']);
    });

    it('hands a batch handler every message once, in order, each batch from one partition', async () => {
      const topic = uniqueName('topic');
      const batches: DeliveredMessage[][] = [];
      const subscription = await bus.subscribeBatches({ topic, group: uniqueName('group') }, async (messages) => {
        batches.push(messages);
      });
      const published = Array.from({ length: 30 }, (_, i) => `m${i}`);

      await bus.publish(
        topic,
        published.map((text) => ({ key: 'ws', value: bytes(text) })),
      );

      await waitUntil(() => batches.flat().length >= published.length);
      expect(batches.flat().map((message) => message.value.toString())).toEqual(published);
      for (const batch of batches) {
        expect(batch.length).toBeGreaterThan(0);
        expect(new Set(batch.map((message) => message.partition)).size).toBe(1);
      }
      await subscription.stop();
    });

    it('retries a failing batch whole and commits it only once handled', async () => {
      const topic = uniqueName('topic');
      const group = uniqueName('group');
      const attempts: string[][] = [];
      const before = await bus.subscribeBatches({ topic, group }, async (messages) => {
        attempts.push(messages.map((message) => message.value.toString()));
        if (attempts.length === 1) throw new Error('store briefly down');
      });
      await bus.publish(topic, [
        { key: 'ws', value: bytes('m1') },
        { key: 'ws', value: bytes('m2') },
      ]);
      await waitUntil(() => ['m1', 'm2'].every((text) => attempts.slice(1).flat().includes(text)));
      await before.stop();
      expect(attempts[1]![0]).toBe(attempts[0]![0]); // the failed batch came back from its start

      await bus.publish(topic, [{ key: 'ws', value: bytes('m3') }]);
      const resumed: string[] = [];
      const after = await bus.subscribeBatches({ topic, group }, async (messages) => {
        resumed.push(...messages.map((message) => message.value.toString()));
      });
      await waitUntil(() => resumed.length >= 1);
      await sleep(1_000); // nothing else may follow
      expect(resumed).toEqual(['m3']);
      await after.stop();
    });
  });
}
