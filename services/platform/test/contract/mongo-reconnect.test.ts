import { createServer } from 'node:net';
import { MongoConnection } from '../../src/adapters/mongo/document-store';
import { describeWithEnv, uniqueName } from './support/real-backends';
import { dropDatabase } from './support/mongo';
import { TcpProxy } from './support/tcp-proxy';

jest.setTimeout(240_000);

const ROUNDS = 6;
const BUSY_LOOPS = 30;
const DOWN_MS = 2_000;
const RECOVERED_WITHIN_MS = 30_000;

/**
 * The MongoDB-wire server restarts (seen through a TCP proxy that drops every connection and comes
 * back) while the process is busy. Without the patch in patches/mongodb@*.patch, the driver's
 * monitor waited forever for a 'drain' of a socket closed mid-write, and every later operation of
 * the process failed server selection with the closed connection's error (issue 30).
 */
describeWithEnv('MongoDB client across server restarts', ['RDE_MONGO_URL'], ({ RDE_MONGO_URL }) => {
  it('a busy client answers again after each restart', async () => {
    const proxy = new TcpProxy(await freePort(), Number(new URL(RDE_MONGO_URL).port));
    await proxy.listen();
    const database = uniqueName('reconnect');
    const connection = await MongoConnection.connect(`mongodb://127.0.0.1:${proxy.port}/`);
    const documents = connection.store(database).collection('probe');
    let busy = true;
    const load = Array.from({ length: BUSY_LOOPS }, async () => {
      while (busy) {
        await documents.findOne({ _id: 'probe' }).catch(() => undefined);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    });
    const recoveries: number[] = [];
    try {
      for (let round = 0; round < ROUNDS; round++) {
        await new Promise((resolve) => setTimeout(resolve, 500));
        await proxy.close();
        await new Promise((resolve) => setTimeout(resolve, DOWN_MS));
        await proxy.listen();
        recoveries.push(await recoveryMs(() => documents.findOne({ _id: 'probe' })));
      }
      expect(recoveries.filter((ms) => ms > RECOVERED_WITHIN_MS)).toEqual([]);
    } finally {
      busy = false;
      await Promise.all(load);
      await connection.close();
      await proxy.close();
      await dropDatabase(RDE_MONGO_URL, database);
    }
  });
});

/** How long until `probe` answers, trying every 250 ms; past the limit, the time waited. */
async function recoveryMs(probe: () => Promise<unknown>): Promise<number> {
  const began = Date.now();
  while (Date.now() - began <= RECOVERED_WITHIN_MS) {
    try {
      await probe();
      return Date.now() - began;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  return Date.now() - began;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}
