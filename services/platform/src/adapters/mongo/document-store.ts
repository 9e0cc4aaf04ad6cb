import { randomUUID } from 'node:crypto';
import {
  MongoBulkWriteError,
  MongoClient,
  MongoServerError,
  type Collection as DriverCollection,
  type Db,
  type UpdateFilter,
} from 'mongodb';
import {
  DuplicateKeyError,
  type Collection,
  type Document,
  type DocumentStore,
  type Filter,
  type FindOptions,
  type IndexSpec,
  type SortSpec,
  type Update,
  type UpdateResult,
} from '../../ports/document-store';
import { withUpsertId } from '../upsert-id';

const DUPLICATE_KEY = 11000;
const STREAM_BATCH_SIZE = 500;
const SERVER_SELECTION_TIMEOUT_MS = 5_000;

function isDuplicateKey(error: unknown): error is MongoServerError {
  return error instanceof MongoServerError && error.code === DUPLICATE_KEY;
}

/**
 * One MongoClient per process, shared by every service database it opens. The server must apply
 * each single-document write atomically, as MongoDB does: FerretDB 1.x runs an update as a read
 * followed by a blind replace, so it is refused (decision 0002).
 */
export class MongoConnection {
  private constructor(readonly client: MongoClient) {}

  static async connect(url: string): Promise<MongoConnection> {
    // A server not reachable within 5 s fails the operation (a 503 for its caller, or the gateway's
    // 504 at its 10 s deadline when a request waits twice) instead of waiting out the driver's
    // default 30 s (issue 30). 2 s was tried: a loaded machine's processes then failed to start.
    const client = await MongoClient.connect(url, {
      appName: `rde-${randomUUID().slice(0, 8)}`,
      serverSelectionTimeoutMS: SERVER_SELECTION_TIMEOUT_MS,
    });
    try {
      const buildInfo = await client.db('admin').command({ buildInfo: 1 });
      if ('ferretdbVersion' in buildInfo) {
        throw new Error(`${url} is FerretDB, whose guarded updates are not atomic; use MongoDB (decision 0002)`);
      }
      return new MongoConnection(client);
    } catch (error) {
      await client.close();
      throw error;
    }
  }

  store(database: string): MongoDocumentStore {
    return new MongoDocumentStore(this.client.db(database));
  }

  async close(): Promise<void> {
    await this.client.close();
  }
}

/** The production document store over the `mongodb` driver (MongoDB 7, or mongo-java-server in tests). */
export class MongoDocumentStore implements DocumentStore {
  constructor(private readonly db: Db) {}

  collection<T extends Document = Document>(name: string): Collection<T> {
    return new MongoCollection<T>(this.db.collection<Document>(name));
  }

  async ping(): Promise<void> {
    await this.db.command({ ping: 1 });
  }

  /** The MongoConnection owns the client; closing one service's store leaves the others open. */
  async close(): Promise<void> {}
}

class MongoCollection<T extends Document> implements Collection<T> {
  constructor(private readonly collection: DriverCollection<Document>) {}

  get name(): string {
    return this.collection.collectionName;
  }

  async insertOne(doc: T): Promise<void> {
    await this.conflictsAsDuplicateKey(() => this.collection.insertOne(doc));
  }

  /** Unordered: the server inserts every document it can and reports each conflict apart. */
  async insertMany(docs: T[]): Promise<{ duplicates: string[] }> {
    if (docs.length === 0) return { duplicates: [] };
    try {
      await this.collection.insertMany(docs, { ordered: false });
      return { duplicates: [] };
    } catch (error) {
      const conflicts = error instanceof MongoBulkWriteError ? [error.writeErrors].flat() : [];
      if (conflicts.length === 0 || conflicts.some((conflict) => conflict.code !== DUPLICATE_KEY)) throw error;
      return { duplicates: conflicts.map((conflict) => docs[conflict.index]._id) };
    }
  }

  async findOne(filter: Filter, options?: Pick<FindOptions, 'sort'>): Promise<T | null> {
    return (await this.collection.findOne(filter, options)) as T | null;
  }

  async find(filter: Filter, options?: FindOptions): Promise<T[]> {
    return (await this.collection.find(filter, options).toArray()) as T[];
  }

  /** Small cursor batches: the driver's default getMore fills up to 16 MiB, ~100,000 small documents. */
  async *stream(filter: Filter, options?: FindOptions): AsyncIterable<T> {
    for await (const doc of this.collection.find(filter, { ...options, batchSize: STREAM_BATCH_SIZE })) yield doc as T;
  }

  async updateOne(filter: Filter, update: Update, options?: { upsert?: boolean }): Promise<UpdateResult> {
    const result = await this.conflictsAsDuplicateKey(() =>
      this.collection.updateOne(filter, driverUpdate(filter, update, options?.upsert), options),
    );
    return {
      matched: result.matchedCount,
      modified: result.modifiedCount,
      ...(result.upsertedId !== null && { upsertedId: String(result.upsertedId) }),
    };
  }

  async findOneAndUpdate(
    filter: Filter,
    update: Update,
    options?: { upsert?: boolean; sort?: SortSpec },
  ): Promise<T | null> {
    const after = await this.conflictsAsDuplicateKey(() =>
      this.collection.findOneAndUpdate(filter, driverUpdate(filter, update, options?.upsert), {
        ...options,
        returnDocument: 'after',
      }),
    );
    return after as T | null;
  }

  async updateMany(filter: Filter, update: Update): Promise<UpdateResult> {
    const result = await this.conflictsAsDuplicateKey(() =>
      this.collection.updateMany(filter, update as UpdateFilter<Document>),
    );
    return { matched: result.matchedCount, modified: result.modifiedCount };
  }

  async updateEach(updates: { filter: Filter; update: Update }[]): Promise<number> {
    if (updates.length === 0) return 0;
    const result = await this.conflictsAsDuplicateKey(() =>
      this.collection.bulkWrite(
        updates.map(({ filter, update }) => ({ updateOne: { filter, update: update as UpdateFilter<Document> } })),
        { ordered: false },
      ),
    );
    return result.matchedCount;
  }

  async deleteOne(filter: Filter): Promise<number> {
    return (await this.collection.deleteOne(filter)).deletedCount;
  }

  async deleteMany(filter: Filter): Promise<number> {
    return (await this.collection.deleteMany(filter)).deletedCount;
  }

  async countDocuments(filter: Filter = {}): Promise<number> {
    return this.collection.countDocuments(filter);
  }

  async createIndex(spec: IndexSpec): Promise<void> {
    await this.conflictsAsDuplicateKey(() =>
      this.collection.createIndex(spec.keys, { unique: spec.unique ?? false, ...(spec.name && { name: spec.name }) }),
    );
  }

  private async conflictsAsDuplicateKey<R>(task: () => Promise<R>): Promise<R> {
    try {
      return await task();
    } catch (error) {
      if (isDuplicateKey(error)) {
        throw new DuplicateKeyError(this.name, error.message);
      }
      throw error;
    }
  }
}

function driverUpdate(filter: Filter, update: Update, upsert: boolean | undefined): UpdateFilter<Document> {
  return (upsert ? withUpsertId(filter, update) : update) as UpdateFilter<Document>;
}
