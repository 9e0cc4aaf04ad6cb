import { DocumentRepository, indexedCollection, type DocumentStore } from '@rde/platform';
import { insertUnlessExists } from './insert';

/** A stored key: its hash and display prefix, never the plaintext. Revoked keys stay, marked. */
export type ApiKeyDocument = {
  _id: string;
  workspace_id: string;
  /** The user the key acts as, who minted it (or for whom an admin minted it). */
  user_id: string;
  name: string;
  display_prefix: string;
  key_hash: string;
  created_at_ms: number;
  /** 0 when never used. */
  last_used_at_ms: number;
  revoked_at_ms: number | null;
};

export class ApiKeysRepository extends DocumentRepository<ApiKeyDocument> {
  static async open(store: DocumentStore): Promise<ApiKeysRepository> {
    return new ApiKeysRepository(
      await indexedCollection<ApiKeyDocument>(store, 'api_keys', [
        { keys: { key_hash: 1 }, unique: true, name: 'key_hash_unique' },
        { keys: { workspace_id: 1, created_at_ms: 1 }, name: 'workspace_created' },
      ]),
    );
  }

  /** Stores a key; false when its id or the key itself (its hash) is stored already. */
  insertUnlessTaken(key: ApiKeyDocument): Promise<boolean> {
    return insertUnlessExists(this.collection, key);
  }

  byHash(hash: string): Promise<ApiKeyDocument | null> {
    return this.collection.findOne({ key_hash: hash });
  }

  /** A key of this workspace, revoked or not; another workspace's key is not found. */
  inWorkspace(keyId: string, workspaceId: string): Promise<ApiKeyDocument | null> {
    return this.collection.findOne({ _id: keyId, workspace_id: workspaceId });
  }

  activeIn(workspaceId: string): Promise<ApiKeyDocument[]> {
    return this.collection.find(
      { workspace_id: workspaceId, revoked_at_ms: null },
      { sort: { created_at_ms: 1, _id: 1 } },
    );
  }

  /** Marks a key revoked once; a second revocation keeps the first time. */
  async revoke(keyId: string, now: number): Promise<void> {
    await this.collection.updateOne({ _id: keyId, revoked_at_ms: null }, { $set: { revoked_at_ms: now } });
  }

  /** Revokes every live key a user holds in a workspace; how many were live. */
  async revokeHeldBy(workspaceId: string, userId: string, now: number): Promise<number> {
    const result = await this.collection.updateMany(
      { workspace_id: workspaceId, user_id: userId, revoked_at_ms: null },
      { $set: { revoked_at_ms: now } },
    );
    return result.matched;
  }

  /** Records a use unless one was recorded within `intervalMs`: at most one write per key per interval. */
  async touch(keyId: string, now: number, intervalMs: number): Promise<void> {
    await this.collection.updateOne(
      { _id: keyId, last_used_at_ms: { $lte: now - intervalMs } },
      { $set: { last_used_at_ms: now } },
    );
  }
}
