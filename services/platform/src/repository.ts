import type { Clock } from './clock';
import type { Collection, Document, DocumentStore, IndexSpec } from './ports/document-store';

/** A repository over one collection, with the clock its writes stamp: the one shape of a service's store. */
export abstract class CollectionRepository<T extends Document> {
  protected constructor(
    /** The collection itself, for the outbox relay that publishes what its writes queued. */
    readonly collection: Collection<T>,
    protected readonly clock: Clock,
  ) {}
}

/** The collection `name` with its indexes made (idempotent: every replica makes them as it starts). */
export async function indexedCollection<T extends Document>(
  store: DocumentStore,
  name: string,
  indexes: readonly IndexSpec[],
): Promise<Collection<T>> {
  const collection = store.collection<T>(name);
  for (const index of indexes) await collection.createIndex(index);
  return collection;
}

/** A repository over one collection whose documents carry their own times (the caller's clock). */
export abstract class DocumentRepository<T extends Document> {
  protected constructor(protected readonly collection: Collection<T>) {}

  /** Stores a new document; a taken id or unique key throws DuplicateKeyError. */
  insert(doc: T): Promise<void> {
    return this.collection.insertOne(doc);
  }
}
