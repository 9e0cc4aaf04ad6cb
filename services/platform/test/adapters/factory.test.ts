import { createBackends, type BackendsOptions } from '../../src/adapters/factory';
import { ManualClock } from '../../src/clock';
import { collect } from '../contract/support/collect';
import { dropDatabase } from '../contract/support/mongo';
import { describeWithEnv, testLogger, uniqueName } from '../contract/support/real-backends';

jest.setTimeout(60_000);

/** What a process's modules rely on from the factory, whichever backends it picked. */
function describeBackends(name: string, options: () => BackendsOptions): void {
  describe(`createBackends: ${name}`, () => {
    it('lets two modules of the process talk through the bus and share a database by name', async () => {
      const backends = createBackends(options());
      const topic = uniqueName('events');
      const database = uniqueName('db').replace(/-/g, '_');
      try {
        const received = await collect(await backends.bus('billing'), topic, uniqueName('billing'));
        await (await backends.bus('waterfall')).publish(topic, [{ key: 'ws', value: Buffer.from('settled') }]);
        expect((await received.waitFor(1))[0]?.value.toString()).toBe('settled');

        const runs = (await backends.documentStore(database)).collection('runs');
        await runs.insertOne({ _id: 'r1' });
        expect(await backends.documentStore(database)).toBe(await backends.documentStore(database));
        expect(await (await backends.documentStore(database)).collection('runs').countDocuments()).toBe(1);

        const namespace = uniqueName('kv');
        await (await backends.keyValue(namespace)).set('k', 'v');
        expect(await (await backends.keyValue(namespace)).get('k')).toBe('v');
        expect(await (await backends.keyValue(uniqueName('kv'))).get('k')).toBeNull();
      } finally {
        await backends.close();
        const settings = options();
        if (settings.kind === 'production') await dropDatabase(settings.mongoUrl, database);
      }
    });
  });
}

describeBackends('memory', () => ({ kind: 'memory', clock: new ManualClock(), logger: testLogger }));

it('gives every module the clock it was given', () => {
  const clock = new ManualClock();
  expect(createBackends({ kind: 'memory', clock }).clock).toBe(clock);
});

describeWithEnv('production backends', ['RDE_MONGO_URL', 'RDE_KAFKA_BROKERS', 'RDE_REDIS_URL'], (env) => {
  describeBackends('production', () => ({
    kind: 'production',
    mongoUrl: env.RDE_MONGO_URL,
    kafkaBrokers: env.RDE_KAFKA_BROKERS.split(','),
    redisUrl: env.RDE_REDIS_URL,
    logger: testLogger,
  }));
});
