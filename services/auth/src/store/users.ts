import type { Clock, Collection, DocumentStore } from '@rde/platform';
import { newId } from '../domain/ids';
import { insertUnlessExists } from './insert';

export type UserDocument = { _id: string; email: string; created_at_ms: number };

/** Users, one per (lowercased) email: a unique index keeps it so across replicas. */
export class Users {
  private constructor(
    private readonly collection: Collection<UserDocument>,
    private readonly clock: Clock,
  ) {}

  static async open(store: DocumentStore, clock: Clock): Promise<Users> {
    const collection = store.collection<UserDocument>('users');
    await collection.createIndex({ keys: { email: 1 }, unique: true, name: 'email_unique' });
    return new Users(collection, clock);
  }

  /** The user with this email, created when new; two racing callers get the same user. */
  async ensure(email: string): Promise<UserDocument> {
    const existing = await this.collection.findOne({ email });
    if (existing) return existing;
    const user: UserDocument = { _id: newId('usr'), email, created_at_ms: this.clock.now() };
    if (await insertUnlessExists(this.collection, user)) return user;
    return (await this.collection.findOne({ email }))!;
  }

  byId(id: string): Promise<UserDocument | null> {
    return this.collection.findOne({ _id: id });
  }
}
