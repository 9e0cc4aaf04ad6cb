import { ManualClock } from '../../src/clock';
import { OutboxRelay, outboxPush, type NewOutboxEvent, type WithOutbox } from '../../src/outbox';
import type { Bus } from '../../src/ports/bus';
import type { Collection, DocumentStore } from '../../src/ports/document-store';
import { collect } from './support/collect';
import { EffectLog } from './support/effects';
import { overriding } from './support/overriding';
import { testLogger, uniqueName } from './support/real-backends';
import { sleep, waitUntil } from './support/wait';

export interface OutboxFixture {
  store: DocumentStore;
  bus: Bus;
  /**
   * Writes `{ status: 'settled' }` and `event` to document `id` of `collection` in one update, from
   * a process (for real servers) that dies before any relay of its could publish the event.
   */
  writeThenDie(collection: string, id: string, event: NewOutboxEvent): Promise<void>;
  close(): Promise<void>;
}

type Run = WithOutbox<{ _id: string; status: string }>;

const EVENT_ID_HEADER = 'rde-event-id';

function event(topic: string, id: string, text: string): NewOutboxEvent {
  return { id, topic, key: 'ws-1', value: Buffer.from(text), headers: { [EVENT_ID_HEADER]: id } };
}

/** The outbox over every store/bus pair: state and events written together, published at least once. */
export function describeOutboxContract(name: string, fixture: () => Promise<OutboxFixture>): void {
  describe(`outbox contract: ${name}`, () => {
    let subject: OutboxFixture;
    let runs: Collection<Run>;
    let topic: string;
    const relay = (collection: Collection<Run> = runs, bus: Bus = subject.bus) =>
      new OutboxRelay({
        collections: [collection],
        bus,
        logger: testLogger,
        pollIntervalMs: 50,
      });

    beforeAll(async () => {
      subject = await fixture();
    });
    afterAll(() => subject.close());
    beforeEach(async () => {
      runs = subject.store.collection<Run>(uniqueName('runs'));
      topic = uniqueName('settlements');
      await runs.insertOne({ _id: 'run-1', status: 'open' });
    });

    it('writes state and events in one update; the relay publishes them as written and then removes them', async () => {
      const clock = new ManualClock();
      const otherTopic = uniqueName('run-events');
      const settlements = await collect(subject.bus, topic, uniqueName('billing'));
      const runEvents = await collect(subject.bus, otherTopic, uniqueName('workflow'));

      const written = await runs.updateOne(
        { _id: 'run-1', status: 'open' },
        {
          $set: { status: 'settled' },
          $push: outboxPush(
            [
              event(topic, 'run-1/1', 'charge 1'),
              event(otherTopic, 'run-1/done', 'done'),
              event(topic, 'run-1/2', 'charge 2'),
            ],
            clock,
          ),
        },
      );
      expect(written.modified).toBe(1);
      const stored = await runs.findOne({ _id: 'run-1' });
      expect(stored?._outbox?.map((e) => [e.id, e.value, e.createdAt.getTime()])).toEqual([
        ['run-1/1', Buffer.from('charge 1').toString('base64'), clock.now()],
        ['run-1/done', Buffer.from('done').toString('base64'), clock.now()],
        ['run-1/2', Buffer.from('charge 2').toString('base64'), clock.now()],
      ]);

      expect(await relay().drainOnce()).toBe(3);

      const received = await settlements.waitFor(2);
      expect(received.map((m) => [m.key, m.value.toString(), m.headers?.[EVENT_ID_HEADER]])).toEqual([
        ['ws-1', 'charge 1', 'run-1/1'],
        ['ws-1', 'charge 2', 'run-1/2'],
      ]);
      expect((await runEvents.waitFor(1))[0]?.value.toString()).toBe('done');
      expect(await runs.findOne({ _id: 'run-1' })).toEqual({ _id: 'run-1', status: 'settled', _outbox: [] });
      expect(await relay().drainOnce()).toBe(0);
      await Promise.all([settlements.subscription.stop(), runEvents.subscription.stop()]);
    });

    it('publishes the collections in their order: a backlog in one holds back the later ones', async () => {
      const parts = subject.store.collection<Run>(uniqueName('parts'));
      for (const id of ['part-1', 'part-2', 'part-3']) {
        await parts.insertOne({ _id: id, status: 'settled', _outbox: [] });
        await parts.updateOne({ _id: id }, { $push: outboxPush([event(topic, id, id)]) });
      }
      await runs.updateOne({ _id: 'run-1' }, { $push: outboxPush([event(topic, 'run-1/final', 'final')]) });
      const ordered = new OutboxRelay({
        collections: [parts, runs],
        bus: subject.bus,
        logger: testLogger,
        pollIntervalMs: 50,
        batchSize: 2,
      });

      expect(await ordered.drainOnce()).toBe(2);
      expect((await runs.findOne({ _id: 'run-1' }))?._outbox?.map((e) => e.id)).toEqual(['run-1/final']);
      expect(await ordered.drainOnce()).toBe(2);
      expect((await runs.findOne({ _id: 'run-1' }))?._outbox).toEqual([]);
    });

    it('removes exactly the published entries: one pushed while publishing waits for the next pass', async () => {
      await runs.updateOne({ _id: 'run-1' }, { $push: outboxPush([event(topic, 'first', 'first')]) });
      let pushedMeanwhile = false;
      const racingBus = overriding(subject.bus, {
        publish: async (name, messages) => {
          if (!pushedMeanwhile) {
            pushedMeanwhile = true;
            await runs.updateOne({ _id: 'run-1' }, { $push: outboxPush([event(topic, 'second', 'second')]) });
          }
          await subject.bus.publish(name, messages);
        },
      });

      expect(await relay(runs, racingBus).drainOnce()).toBe(1);
      expect((await runs.findOne({ _id: 'run-1' }))?._outbox?.map((e) => e.id)).toEqual(['second']);
      expect(await relay().drainOnce()).toBe(1);
      expect((await runs.findOne({ _id: 'run-1' }))?._outbox).toEqual([]);
    });

    it('writers that finish while a publication is under way have their events published next, together, each once and in order', async () => {
      const settlements = await collect(subject.bus, topic, uniqueName('billing'));
      const ids = ['run-1', 'run-2', 'run-3'];
      await runs.insertMany([
        { _id: 'run-2', status: 'open' },
        { _id: 'run-3', status: 'open' },
      ]);
      for (const id of ids)
        await runs.updateOne({ _id: id }, { $push: outboxPush([event(topic, id, `charge of ${id}`)]) });
      let releaseFirst!: () => void;
      const firstHeld = new Promise<void>((resolve) => (releaseFirst = resolve));
      const publications: string[][] = [];
      const slowBus = overriding(subject.bus, {
        publish: async (name, messages) => {
          publications.push(messages.map((message) => message.value.toString()));
          if (publications.length === 1) await firstHeld;
          await subject.bus.publish(name, messages);
        },
      });
      const writers = relay(runs, slowBus);

      const first = writers.relayDocument(runs, 'run-1');
      const later = [writers.relayDocument(runs, 'run-3'), writers.relayDocument(runs, 'run-2')];
      releaseFirst();

      expect(await Promise.all([first, ...later])).toEqual([1, 1, 1]);
      expect(publications).toEqual([['charge of run-1'], ['charge of run-3', 'charge of run-2']]);
      expect((await settlements.waitFor(3)).map((m) => m.value.toString())).toEqual([
        'charge of run-1',
        'charge of run-3',
        'charge of run-2',
      ]);
      for (const id of ids) expect((await runs.findOne({ _id: id }))?._outbox).toEqual([]);
      await settlements.subscription.stop();
    });

    it('republishes after a crash between publishing and removing; an idempotent consumer applies it once', async () => {
      const effects = await EffectLog.create();
      const billing = await subject.bus.subscribe({ topic, group: uniqueName('billing') }, (message) =>
        effects.deliver(message.headers?.[EVENT_ID_HEADER] ?? 'no id'),
      );
      await runs.updateOne({ _id: 'run-1' }, { $push: outboxPush([event(topic, 'charge-7', 'charge 7')]) });

      await expect(relay(crashesOnFirstUpdate(runs)).drainOnce()).rejects.toThrow('crashed');
      expect(await relay().drainOnce()).toBe(1);

      await waitUntil(async () => (await effects.deliveries()).length >= 2);
      await billing.stop();
      expect(await effects.deliveries()).toEqual(['charge-7', 'charge-7']);
      expect(await effects.effects()).toEqual(['charge-7']);
    });

    it('publishes, from a fresh relay, an event whose writer died before its relay ran, exactly as written', async () => {
      const consumer = await collect(subject.bus, topic, uniqueName('billing'));
      const written = event(topic, 'run-2/charge', 'charge after crash');
      written.headers = { ...written.headers, traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' };

      await subject.writeThenDie(runs.name, 'run-2', written);
      expect((await runs.findOne({ _id: 'run-2' }))?.status).toBe('settled');

      expect(await relay().drainOnce()).toBe(1);
      const [received] = await consumer.waitFor(1);
      expect({ key: received?.key, value: [...(received?.value ?? [])], headers: received?.headers }).toEqual({
        key: written.key,
        value: [...written.value],
        headers: written.headers,
      });
      await consumer.subscription.stop();
    });

    it('polls in the background from start() until stop()', async () => {
      const consumer = await collect(subject.bus, topic, uniqueName('billing'));
      const background = relay();
      background.start();

      await runs.updateOne({ _id: 'run-1' }, { $push: outboxPush([event(topic, 'polled', 'polled')]) });
      expect((await consumer.waitFor(1))[0]?.value.toString()).toBe('polled');

      await background.stop();
      await runs.updateOne({ _id: 'run-1' }, { $push: outboxPush([event(topic, 'after-stop', 'after stop')]) });
      await sleep(300);
      expect((await runs.findOne({ _id: 'run-1' }))?._outbox?.map((e) => e.id)).toEqual(['after-stop']);
      await consumer.subscription.stop();
    });
  });
}

/** The collection with its first bulk update failing: the relay's removal after a publish. */
function crashesOnFirstUpdate<T extends Run>(collection: Collection<T>): Collection<T> {
  let crashed = false;
  return overriding(collection, {
    updateEach: async (...args) => {
      if (crashed) return collection.updateEach(...args);
      crashed = true;
      throw new Error('crashed before removing the published events');
    },
  });
}
