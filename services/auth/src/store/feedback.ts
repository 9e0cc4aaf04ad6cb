import { DocumentRepository, indexedCollection, type DocumentStore } from '@rde/platform';

/** A product feedback report of a workspace. Issue-tracker ids are never kept with it. */
export type FeedbackDocument = {
  _id: string;
  workspace_id: string;
  user_id: string;
  message: string;
  category: string;
  created_at_ms: number;
};

export class FeedbackRepository extends DocumentRepository<FeedbackDocument> {
  static async open(store: DocumentStore): Promise<FeedbackRepository> {
    return new FeedbackRepository(
      await indexedCollection<FeedbackDocument>(store, 'feedback', [
        { keys: { workspace_id: 1, created_at_ms: -1 }, name: 'workspace_newest' },
      ]),
    );
  }

  /** Newest first; equal times by id, so pages never overlap. */
  page(workspaceId: string, offset: number, limit: number): Promise<FeedbackDocument[]> {
    return this.collection.find(
      { workspace_id: workspaceId },
      { sort: { created_at_ms: -1, _id: -1 }, skip: offset, limit },
    );
  }

  count(workspaceId: string): Promise<number> {
    return this.collection.countDocuments({ workspace_id: workspaceId });
  }
}
