import { Query } from 'mingo';
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
import { getOrCreate } from '../get-or-create';
import { compilePlainFilter, sortPlain } from './plain-filter';
import { applyUpdate, seedFromFilter } from './updates';
import { UniqueIndex } from './unique-index';
import { withUpsertId } from '../upsert-id';
import { deepCopy } from './deep-copy';

/** Callers get copies, so nothing they do to a result changes stored state. */
const copy = deepCopy;

/** The embedded document store: MongoDB query and update semantics from mingo, over in-process maps. */
export class InMemoryDocumentStore implements DocumentStore {
  private readonly collections = new Map<string, InMemoryCollection<Document>>();

  collection<T extends Document = Document>(name: string): Collection<T> {
    return getOrCreate(this.collections, name, () => new InMemoryCollection(name)) as unknown as Collection<T>;
  }

  async ping(): Promise<void> {}

  async close(): Promise<void> {}
}

/**
 * Every method runs its read-modify-write synchronously between two awaits, so each conditional
 * update is atomic: JavaScript runs one of them at a time.
 */
class InMemoryCollection<T extends Document> implements Collection<T> {
  /** by _id, in insertion order (the natural order of a find without sort) */
  private readonly documents = new Map<string, T>();
  private readonly uniqueIndexes: UniqueIndex[] = [];

  constructor(readonly name: string) {}

  async insertOne(doc: T): Promise<void> {
    this.insert(copy(doc));
  }

  async insertMany(docs: T[]): Promise<{ duplicates: string[] }> {
    const duplicates: string[] = [];
    for (const doc of docs) {
      try {
        this.insert(copy(doc));
      } catch (error) {
        if (!(error instanceof DuplicateKeyError)) throw error;
        duplicates.push(doc._id);
      }
    }
    return { duplicates };
  }

  async findOne(filter: Filter, options?: Pick<FindOptions, 'sort'>): Promise<T | null> {
    const [first] = this.matching(filter, { ...options, limit: 1 });
    return first ? copy(first) : null;
  }

  async find(filter: Filter, options?: FindOptions): Promise<T[]> {
    return this.matching(filter, options).map(copy);
  }

  async *stream(filter: Filter, options?: FindOptions): AsyncIterable<T> {
    for (const doc of this.matching(filter, options)) yield copy(doc);
  }

  async updateOne(filter: Filter, update: Update, options?: { upsert?: boolean }): Promise<UpdateResult> {
    return this.update(filter, update, { ...options, limit: 1 }).result;
  }

  async findOneAndUpdate(
    filter: Filter,
    update: Update,
    options?: { upsert?: boolean; sort?: SortSpec },
  ): Promise<T | null> {
    const [id] = this.update(filter, update, { ...options, limit: 1 }).ids;
    const doc = id === undefined ? undefined : this.documents.get(id);
    return doc ? copy(doc) : null;
  }

  async updateMany(filter: Filter, update: Update): Promise<UpdateResult> {
    return this.update(filter, update, {}).result;
  }

  async updateEach(updates: { filter: Filter; update: Update }[]): Promise<number> {
    return updates.reduce(
      (matched, { filter, update }) => matched + this.update(filter, update, { limit: 1 }).result.matched,
      0,
    );
  }

  async deleteOne(filter: Filter): Promise<number> {
    return this.remove(this.matching(filter, { limit: 1 }));
  }

  async deleteMany(filter: Filter): Promise<number> {
    return this.remove(this.matching(filter));
  }

  async countDocuments(filter: Filter = {}): Promise<number> {
    return this.matching(filter).length;
  }

  async createIndex(spec: IndexSpec): Promise<void> {
    if (!spec.unique) return; // only unique indexes change behaviour; the rest are for MongoDB's planner
    const index = new UniqueIndex(spec);
    if (this.uniqueIndexes.some((existing) => existing.name === index.name)) return;
    for (const doc of this.documents.values()) index.add(doc, this.name);
    this.uniqueIndexes.push(index);
  }

  /**
   * Stored documents (not copies) matching `filter`; looking `_id`s up directly (one, or `$in`)
   * spares a scan, and the common filter shapes are decided without building a mingo Query.
   */
  private matching(filter: Filter, options: FindOptions = {}): T[] {
    const candidates = this.candidates(filter._id);
    return plainMatching(filter, candidates, options) ?? mingoMatching(filter, candidates, options);
  }

  /** For `_id: {$in}` in the order of the list (MongoDB promises no order there without a sort). */
  private candidates(id: unknown): T[] {
    const ids = typeof id === 'string' ? [id] : (id as { $in?: unknown } | undefined)?.$in;
    if (!Array.isArray(ids)) return [...this.documents.values()];
    return [...new Set(ids)].flatMap((one) => this.documents.get(one as string) ?? []);
  }

  private update(
    filter: Filter,
    update: Update,
    options: { upsert?: boolean; sort?: SortSpec; limit?: number },
  ): { result: UpdateResult; ids: string[] } {
    const targets = this.matching(filter, options);
    if (targets.length === 0) {
      if (!options.upsert) return { result: { matched: 0, modified: 0 }, ids: [] };
      const created = applyUpdate(seedFromFilter(filter), withUpsertId(filter, update), true).doc as T;
      this.insert(created);
      return { result: { matched: 0, modified: 0, upsertedId: created._id }, ids: [created._id] };
    }
    let modified = 0;
    for (const current of targets) {
      const { doc, changed } = applyUpdate(current, update, false);
      if (!changed) continue;
      const next = doc as T;
      if (next._id !== current._id) throw new Error(`${this.name}: an update cannot change _id`);
      this.replace(current, next);
      modified++;
    }
    return { result: { matched: targets.length, modified }, ids: targets.map((doc) => doc._id) };
  }

  private insert(doc: T): void {
    if (this.documents.has(doc._id)) throw new DuplicateKeyError(this.name, `_id ${JSON.stringify(doc._id)}`);
    this.indexAll(doc);
    this.documents.set(doc._id, doc);
  }

  /** Checks every unique index before changing any, so a violating update leaves the document as it was. */
  private replace(current: T, next: T): void {
    for (const index of this.uniqueIndexes) index.remove(current);
    try {
      this.indexAll(next);
    } catch (error) {
      for (const index of this.uniqueIndexes) index.add(current, this.name);
      throw error;
    }
    this.documents.set(next._id, next);
  }

  private indexAll(doc: T): void {
    const added: UniqueIndex[] = [];
    try {
      for (const index of this.uniqueIndexes) {
        index.add(doc, this.name);
        added.push(index);
      }
    } catch (error) {
      for (const index of added) index.remove(doc);
      throw error;
    }
  }

  private remove(docs: T[]): number {
    for (const doc of docs) {
      for (const index of this.uniqueIndexes) index.remove(doc);
      this.documents.delete(doc._id);
    }
    return docs.length;
  }
}

function plainMatching<T>(filter: Filter, candidates: T[], options: FindOptions): T[] | undefined {
  const matcher = compilePlainFilter(filter);
  if (!matcher) return undefined;
  const matched: T[] = [];
  for (const doc of candidates) {
    const verdict = matcher(doc);
    if (verdict === undefined) return undefined;
    if (verdict) matched.push(doc);
  }
  const sorted = options.sort ? sortPlain(matched, options.sort) : matched;
  if (!sorted) return undefined;
  const from = options.skip ?? 0;
  return sorted.slice(from, options.limit ? from + options.limit : undefined);
}

function mingoMatching<T>(filter: Filter, candidates: T[], options: FindOptions): T[] {
  let cursor = new Query(filter).find<T>(candidates);
  if (options.sort) cursor = cursor.sort(options.sort);
  if (options.skip) cursor = cursor.skip(options.skip);
  if (options.limit) cursor = cursor.limit(options.limit);
  return cursor.all();
}
