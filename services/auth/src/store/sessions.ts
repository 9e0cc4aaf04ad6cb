import { DocumentRepository, indexedCollection, type DocumentStore } from '@rde/platform';

/** A browser session: the cookie's hash, never the cookie. */
export type SessionDocument = {
  _id: string;
  token_hash: string;
  user_id: string;
  workspace_id: string;
  created_at_ms: number;
  expires_at_ms: number;
  revoked_at_ms: number | null;
};

export class SessionsRepository extends DocumentRepository<SessionDocument> {
  static async open(store: DocumentStore): Promise<SessionsRepository> {
    return new SessionsRepository(
      await indexedCollection<SessionDocument>(store, 'sessions', [
        { keys: { token_hash: 1 }, unique: true, name: 'token_hash_unique' },
        { keys: { user_id: 1, workspace_id: 1 }, name: 'user_workspace' },
      ]),
    );
  }

  byHash(hash: string): Promise<SessionDocument | null> {
    return this.collection.findOne({ token_hash: hash });
  }

  /** Revokes every live browser session of a user that acts for this workspace. */
  async revokeHeldBy(workspaceId: string, userId: string, now: number): Promise<void> {
    await this.collection.updateMany(
      { workspace_id: workspaceId, user_id: userId, revoked_at_ms: null },
      { $set: { revoked_at_ms: now } },
    );
  }

  /** True when a live session had this hash; a second revocation keeps the first time. */
  async revoke(hash: string, now: number): Promise<boolean> {
    const result = await this.collection.updateOne(
      { token_hash: hash, revoked_at_ms: null },
      { $set: { revoked_at_ms: now } },
    );
    return result.matched > 0;
  }
}
