import { join } from 'node:path';
import { KafkaBus } from '../../src/adapters/kafka/bus';
import { InMemoryBus, InMemoryBusLog } from '../../src/adapters/memory/bus';
import { InMemoryDocumentStore } from '../../src/adapters/memory/document-store';
import { MongoConnection } from '../../src/adapters/mongo/document-store';
import { outboxPush } from '../../src/outbox';
import { WRITTEN } from './children/signals';
import { describeOutboxContract } from './outbox.contract';
import { killHard, spawnUntilLine } from './support/child';
import { dropDatabase } from './support/mongo';
import { describeWithEnv, RUN_ID, testLogger } from './support/real-backends';

jest.setTimeout(60_000);

describeOutboxContract('in-memory store and bus', async () => {
  const store = new InMemoryDocumentStore();
  const bus = new InMemoryBus(new InMemoryBusLog(), { logger: testLogger });
  return {
    store,
    bus,
    // In one process "dying before the relay ran" is a write no relay has seen yet.
    async writeThenDie(collection, id, event) {
      await store
        .collection(collection)
        .updateOne({ _id: id }, { $set: { status: 'settled' }, $push: outboxPush([event]) }, { upsert: true });
    },
    close: () => bus.close(),
  };
});

describeWithEnv('MongoDB-wire server and Kafka', ['RDE_MONGO_URL', 'RDE_KAFKA_BROKERS'], (env) => {
  describeOutboxContract(`${env.RDE_MONGO_URL} and ${env.RDE_KAFKA_BROKERS}`, async () => {
    const database = `rde_outbox_${RUN_ID}`;
    const connection = await MongoConnection.connect(env.RDE_MONGO_URL);
    const bus = new KafkaBus({
      brokers: env.RDE_KAFKA_BROKERS.split(','),
      clientId: 'outbox-contract',
      logger: testLogger,
      sessionTimeoutMs: 6_000,
    });
    return {
      store: connection.store(database),
      bus,
      async writeThenDie(collection, id, event) {
        const script = join(__dirname, 'children', 'write-outbox-then-die.ts');
        const eventJson = JSON.stringify({ ...event, value: Buffer.from(event.value).toString('base64') });
        const child = await spawnUntilLine(script, [env.RDE_MONGO_URL, database, collection, id, eventJson], WRITTEN);
        await killHard(child);
      },
      async close() {
        await bus.close();
        await connection.close();
        await dropDatabase(env.RDE_MONGO_URL, database);
      },
    };
  });
});
