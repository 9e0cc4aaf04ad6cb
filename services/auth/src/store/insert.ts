import { DuplicateKeyError, type Collection, type Document } from '@rde/platform';

/** Inserts a document unless a unique index already holds it; true when this call inserted it. */
export async function insertUnlessExists<T extends Document>(collection: Collection<T>, doc: T): Promise<boolean> {
  try {
    await collection.insertOne(doc);
    return true;
  } catch (error) {
    if (error instanceof DuplicateKeyError) return false;
    throw error;
  }
}
