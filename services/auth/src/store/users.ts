import type { Clock, Collection, DocumentStore } from '@rde/platform';
import { newId } from '../domain/ids';
import { insertUnlessExists } from './insert';

export type UserDocument = {
  _id: string;
  email: string;
  created_at_ms: number;
  /** argon2id (PHC string); absent until the user sets a password. */
  password_hash?: string;
  /** False only for a legacy password account that never proved its email. */
  email_verified?: boolean;
  /** A legacy anonymous CLI approval's user: bound to no email, proves nothing. */
  anonymous?: boolean;
};

/** Users, one per (lowercased) email: a unique index keeps it so across replicas. */
export class UsersRepository {
  private constructor(
    private readonly collection: Collection<UserDocument>,
    private readonly clock: Clock,
  ) {}

  static async open(store: DocumentStore, clock: Clock): Promise<UsersRepository> {
    const collection = store.collection<UserDocument>('users');
    await collection.createIndex({ keys: { email: 1 }, unique: true, name: 'email_unique' });
    return new UsersRepository(collection, clock);
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

  byEmail(email: string): Promise<UserDocument | null> {
    return this.collection.findOne({ email });
  }

  /** A user with no email of their own (legacy anonymous approval), under a reserved domain. */
  async createAnonymous(): Promise<UserDocument> {
    const id = newId('usr');
    const user: UserDocument = {
      _id: id,
      email: `${id}@anonymous.invalid`,
      anonymous: true,
      created_at_ms: this.clock.now(),
    };
    await this.collection.insertOne(user);
    return user;
  }

  /** Signing in through an emailed secret proves the email. */
  async markVerified(id: string): Promise<void> {
    await this.collection.updateOne({ _id: id }, { $set: { email_verified: true } });
  }

  async setPassword(id: string, passwordHash: string): Promise<void> {
    await this.collection.updateOne({ _id: id }, { $set: { password_hash: passwordHash, email_verified: true } });
  }
}
