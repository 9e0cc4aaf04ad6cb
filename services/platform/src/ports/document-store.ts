/**
 * The document-store port: one narrow collection interface that MongoDB (mongo-java-server in
 * tests) and the in-memory adapter implement. Single-document atomicity and unique indexes only: no
 * multi-document transactions, no change streams, so any number of replicas may write. Repositories
 * are written once against it.
 */
export type Document = { _id: string } & Record<string, unknown>;

/** A MongoDB query subset: equality, dotted paths, $eq $ne $gt $gte $lt $lte $in $nin $exists, $and $or. */
export type Filter = Record<string, unknown>;

/**
 * $set, $inc, $push (with $each), $pull, $pullAll, $unset (and $setOnInsert for upserts).
 * $pull and $pullAll remove elements EQUAL to the given values (no query conditions inside $pull).
 */
export interface Update {
  $set?: Record<string, unknown>;
  $inc?: Record<string, number>;
  $push?: Record<string, unknown>;
  $pull?: Record<string, unknown>;
  $pullAll?: Record<string, unknown[]>;
  $unset?: Record<string, '' | 1 | true>;
  $setOnInsert?: Record<string, unknown>;
}

export type SortSpec = Record<string, 1 | -1>;

export interface FindOptions {
  sort?: SortSpec;
  skip?: number;
  limit?: number;
}

export interface UpdateResult {
  /** documents that matched the filter (0 means the guard failed) */
  matched: number;
  modified: number;
  /** the _id of the document an upsert inserted */
  upsertedId?: string;
}

export interface IndexSpec {
  keys: Record<string, 1 | -1>;
  unique?: boolean;
  name?: string;
}

/** Thrown for a unique-index violation (duplicate _id or unique key): a conflict, never a crash. */
export class DuplicateKeyError extends Error {
  constructor(
    readonly collection: string,
    detail: string,
  ) {
    super(`duplicate key in ${collection}: ${detail}`);
    this.name = 'DuplicateKeyError';
  }
}

export interface Collection<T extends Document = Document> {
  readonly name: string;
  insertOne(doc: T): Promise<void>;
  /**
   * Inserts each document on its own, in one round trip (bulk rows): one whose _id or unique key
   * is taken is skipped and its _id reported; the others are inserted whatever their order.
   */
  insertMany(docs: T[]): Promise<{ duplicates: string[] }>;
  findOne(filter: Filter, options?: Pick<FindOptions, 'sort'>): Promise<T | null>;
  find(filter: Filter, options?: FindOptions): Promise<T[]>;
  /** Streams matches in order without holding them all in memory (CSV export of a million rows). */
  stream(filter: Filter, options?: FindOptions): AsyncIterable<T>;
  /** A conditional single-document update: the filter is the guard. */
  updateOne(filter: Filter, update: Update, options?: { upsert?: boolean }): Promise<UpdateResult>;
  /** Atomically updates one document and returns it as it is after the update, or null when none matched. */
  findOneAndUpdate(filter: Filter, update: Update, options?: { upsert?: boolean; sort?: SortSpec }): Promise<T | null>;
  updateMany(filter: Filter, update: Update): Promise<UpdateResult>;
  /**
   * Runs each conditional single-document update on its own, in one round trip, in no promised
   * order (a bulk of independent writes, e.g. one value per ledger entry); returns how many matched.
   */
  updateEach(updates: { filter: Filter; update: Update }[]): Promise<number>;
  deleteOne(filter: Filter): Promise<number>;
  deleteMany(filter: Filter): Promise<number>;
  countDocuments(filter?: Filter): Promise<number>;
  createIndex(spec: IndexSpec): Promise<void>;
}

export interface DocumentStore {
  /** Each service has its own database; nobody else reads it. */
  collection<T extends Document = Document>(name: string): Collection<T>;
  ping(): Promise<void>;
  close(): Promise<void>;
}
