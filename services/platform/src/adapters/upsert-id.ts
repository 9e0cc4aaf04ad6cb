import { randomUUID } from 'node:crypto';
import type { Filter, Update } from '../ports/document-store';

/**
 * The port's documents have string ids. An upsert whose filter names no `_id` would get a server
 * ObjectId on MongoDB, so every adapter gives it a UUID instead.
 */
export function withUpsertId(filter: Filter, update: Update): Update {
  if (filter._id !== undefined) return update;
  return { ...update, $setOnInsert: { _id: randomUUID(), ...update.$setOnInsert } };
}
