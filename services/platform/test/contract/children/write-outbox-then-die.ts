/**
 * A service that writes a state change and its outbox event in one update, tells the parent, and
 * hangs before any relay of its runs; the parent SIGKILLs it there.
 * Usage: write-outbox-then-die.ts <mongo-url> <database> <collection> <document-id> <event-json>
 * (the event's value as base64)
 */
import { MongoConnection } from '../../../src/adapters/mongo/document-store';
import { outboxPush, type NewOutboxEvent } from '../../../src/outbox';
import { WRITTEN } from './signals';

async function main(): Promise<void> {
  const [url = '', database = '', collection = '', id = '', eventJson = '{}'] = process.argv.slice(2);
  const event = JSON.parse(eventJson) as Omit<NewOutboxEvent, 'value'> & { value: string };
  const store = (await MongoConnection.connect(url)).store(database);
  await store
    .collection(collection)
    .updateOne(
      { _id: id },
      { $set: { status: 'settled' }, $push: outboxPush([{ ...event, value: Buffer.from(event.value, 'base64') }]) },
      { upsert: true },
    );
  process.stdout.write(`${WRITTEN}\n`);
  await new Promise(() => undefined); // killed here, before a relay could publish
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
