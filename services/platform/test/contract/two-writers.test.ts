import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { MongoConnection } from '../../src/adapters/mongo/document-store';
import type { Collection } from '../../src/ports/document-store';
import { READY } from './children/signals';
import { spawnUntilLine } from './support/child';
import { dropDatabase } from './support/mongo';
import { describeWithEnv, RUN_ID } from './support/real-backends';

jest.setTimeout(60_000);

const WRITER = join(__dirname, 'children/concurrent-writer.ts');

/** Resolves with the count a writer prints last (`done <n>`), once it exited cleanly. */
async function effectiveWrites(child: ChildProcess): Promise<number> {
  let count: number | undefined;
  createInterface({ input: child.stdout! }).on('line', (line) => {
    const match = /^done (\d+)$/.exec(line);
    if (match) count = Number(match[1]);
  });
  const [code] = (await once(child, 'exit')) as [number | null];
  if (code !== 0 || count === undefined) throw new Error(`writer exited ${String(code)} without a count`);
  return count;
}

/**
 * Two processes, as two replicas of billing would be: the store (not the adapter, which holds no
 * lock) must make each single-document write atomic and each unique index hold across connections.
 */
describeWithEnv('two writing processes on one MongoDB-wire store', ['RDE_MONGO_URL'], ({ RDE_MONGO_URL }) => {
  const database = `rde_two_writers_${RUN_ID}`;
  let connection: MongoConnection;
  let race: Collection;

  beforeAll(async () => {
    connection = await MongoConnection.connect(RDE_MONGO_URL);
    race = connection.store(database).collection('race');
  });
  afterEach(async () => {
    await race.deleteMany({});
  });
  afterAll(async () => {
    await connection.close();
    await dropDatabase(RDE_MONGO_URL, database);
  });

  /** Starts both writers, lets them race from the same moment, returns each one's count. */
  async function raceTwoWriters(kind: string, operations: number): Promise<number[]> {
    const writers = await Promise.all(
      [1, 2].map(() => spawnUntilLine(WRITER, [RDE_MONGO_URL, database, kind, String(operations)], READY)),
    );
    const counts = writers.map(effectiveWrites);
    await race.insertOne({ _id: 'go' });
    return Promise.all(counts);
  }

  it('lets exactly as many guarded decrements pass as the balance allows, never below zero', async () => {
    await race.insertOne({ _id: 'account', balance: 300 });

    const counts = await raceTwoWriters('guarded-decrement', 200);

    expect(counts[0] + counts[1]).toBe(300);
    expect(await race.findOne({ _id: 'account' })).toEqual({ _id: 'account', balance: 0 });
  });

  it('stores each unique id once when both processes insert the same ids', async () => {
    const counts = await raceTwoWriters('unique-insert', 200);

    expect(counts[0] + counts[1]).toBe(200);
    expect(await race.countDocuments({ _id: { $ne: 'go' } })).toBe(200);
  });

  it('loses no compare-and-set: every increment guarded by the value read lands once', async () => {
    await race.insertOne({ _id: 'counter', value: 0 });

    const counts = await raceTwoWriters('compare-and-set', 100);

    expect(counts).toEqual([100, 100]);
    expect(await race.findOne({ _id: 'counter' })).toEqual({ _id: 'counter', value: 200 });
  });
});
