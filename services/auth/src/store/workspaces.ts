import type { Collection, DocumentStore } from '@rde/platform';
import { insertUnlessExists } from './insert';

export type WorkspaceDocument = { _id: string; name: string; owner_user_id: string; created_at_ms: number };

export class WorkspacesRepository {
  private readonly collection: Collection<WorkspaceDocument>;

  constructor(store: DocumentStore) {
    this.collection = store.collection<WorkspaceDocument>('workspaces');
  }

  /** Stores a workspace; false when one with its id exists (the dev workspace has a fixed id). */
  insert(workspace: WorkspaceDocument): Promise<boolean> {
    return insertUnlessExists(this.collection, workspace);
  }

  /** Names another owner as the one /api/v2/me shows, when the named one stops being an owner. */
  async setOwner(id: string, fromUserId: string, toUserId: string): Promise<void> {
    await this.collection.updateOne({ _id: id, owner_user_id: fromUserId }, { $set: { owner_user_id: toUserId } });
  }

  byId(id: string): Promise<WorkspaceDocument | null> {
    return this.collection.findOne({ _id: id });
  }
}
