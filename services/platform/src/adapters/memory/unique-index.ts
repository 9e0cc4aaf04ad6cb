import { DuplicateKeyError, type Document, type IndexSpec } from '../../ports/document-store';

/** A unique index: the key of each document (a missing field counts as null, as in MongoDB) to its _id. */
export class UniqueIndex {
  readonly name: string;
  private readonly paths: string[];
  private readonly owners = new Map<string, string>();

  constructor(spec: IndexSpec) {
    this.paths = Object.keys(spec.keys);
    this.name = spec.name ?? Object.entries(spec.keys).flat().join('_');
  }

  add(doc: Document, collection: string): void {
    const key = this.keyOf(doc);
    const owner = this.owners.get(key);
    if (owner !== undefined && owner !== doc._id) throw new DuplicateKeyError(collection, `${this.name} ${key}`);
    this.owners.set(key, doc._id);
  }

  remove(doc: Document): void {
    const key = this.keyOf(doc);
    if (this.owners.get(key) === doc._id) this.owners.delete(key);
  }

  private keyOf(doc: Document): string {
    return JSON.stringify(this.paths.map((path) => valueAt(doc, path) ?? null));
  }
}

function valueAt(doc: unknown, path: string): unknown {
  return path
    .split('.')
    .reduce<unknown>(
      (value, part) =>
        value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[part] : undefined,
      doc,
    );
}
