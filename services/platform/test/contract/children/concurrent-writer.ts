/**
 * One of two writing processes racing on the same documents, as two replicas of a service would.
 * Prints `ready`, waits until the parent inserts the `go` document (so both race from the same
 * moment), runs `operations` writes of the given kind, eight at a time, and prints how many of
 * them took effect as `done <n>`.
 * Usage: concurrent-writer.ts <mongo-url> <database> <guarded-decrement|unique-insert|compare-and-set> <operations>
 */
import { MongoConnection } from '../../../src/adapters/mongo/document-store';
import { DuplicateKeyError, type Collection } from '../../../src/ports/document-store';
import { waitUntil } from '../support/wait';
import { READY, done } from './signals';

const IN_FLIGHT = 8;

type Write = (collection: Collection, index: number) => Promise<boolean>;

const writes: Record<string, Write> = {
  /** The Reserve shape: a guard on the value the update changes. */
  'guarded-decrement': async (collection) => {
    const result = await collection.updateOne({ _id: 'account', balance: { $gte: 1 } }, { $inc: { balance: -1 } });
    return result.modified === 1;
  },
  /** The ledger shape: one document per deterministic id, the second insert a duplicate. */
  'unique-insert': async (collection, index) => {
    try {
      await collection.insertOne({ _id: `charge-${index}` });
      return true;
    } catch (error) {
      if (error instanceof DuplicateKeyError) return false;
      throw error;
    }
  },
  /** The settlement shape: read, then write guarded by the value read; retried on a lost race. */
  'compare-and-set': async (collection) => {
    for (;;) {
      const read = await collection.findOne({ _id: 'counter' });
      const value = Number(read?.value);
      const result = await collection.updateOne({ _id: 'counter', value }, { $set: { value: value + 1 } });
      if (result.modified === 1) return true;
    }
  },
};

async function main(): Promise<void> {
  const [url = '', database = '', kind = '', operations = '0'] = process.argv.slice(2);
  const write = writes[kind];
  if (!write) throw new Error(`unknown write kind ${kind}`);
  const connection = await MongoConnection.connect(url);
  const collection = connection.store(database).collection('race');
  process.stdout.write(`${READY}\n`);
  await waitUntil(async () => (await collection.findOne({ _id: 'go' })) !== null);

  let next = 0;
  let effective = 0;
  const worker = async () => {
    while (next < Number(operations)) if (await write(collection, next++)) effective++;
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  process.stdout.write(`${done(effective)}\n`);
  await connection.close();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
