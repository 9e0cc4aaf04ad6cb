import { InMemoryDocumentStore } from '../../src/adapters/memory/document-store';
import { MongoConnection } from '../../src/adapters/mongo/document-store';
import { describeDocumentStoreContract } from './document-store.contract';
import { dropDatabase } from './support/mongo';
import { describeWithEnv, RUN_ID } from './support/real-backends';

jest.setTimeout(30_000); // a real server shares two cores with the other suites

describeDocumentStoreContract(
  'in-memory',
  async () => new InMemoryDocumentStore(),
  async () => undefined,
);

describeWithEnv('MongoDB-wire server', ['RDE_MONGO_URL'], ({ RDE_MONGO_URL }) => {
  const database = `rde_contract_${RUN_ID}`;
  let connection: MongoConnection;

  describeDocumentStoreContract(
    RDE_MONGO_URL,
    async () => {
      connection = await MongoConnection.connect(RDE_MONGO_URL);
      return connection.store(database);
    },
    async () => {
      await connection.close();
      await dropDatabase(RDE_MONGO_URL, database);
    },
  );
});
