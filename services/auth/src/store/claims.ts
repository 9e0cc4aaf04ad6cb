import { DocumentRepository, type DocumentStore } from '@rde/platform';

export type ClaimStatus = 'pending' | 'approved' | 'delivered';

/** A CLI sign-in claim, by its token's hash: the token itself is the client's and the browser's secret. */
export type ClaimDocument = {
  _id: string;
  status: ClaimStatus;
  /** Set on approval: whom the bearer will act as. */
  user_id: string | null;
  workspace_id: string | null;
  created_at_ms: number;
  expires_at_ms: number;
  approved_at_ms: number | null;
};

export class ClaimsRepository extends DocumentRepository<ClaimDocument> {
  static async open(store: DocumentStore): Promise<ClaimsRepository> {
    return new ClaimsRepository(store.collection<ClaimDocument>('claims'));
  }

  byHash(hash: string): Promise<ClaimDocument | null> {
    return this.collection.findOne({ _id: hash });
  }

  /** Approves a pending, unexpired claim once; null when it is not waiting any more. */
  approve(hash: string, holder: { userId: string; workspaceId: string }, now: number): Promise<ClaimDocument | null> {
    return this.collection.findOneAndUpdate(
      { _id: hash, status: 'pending', expires_at_ms: { $gt: now } },
      { $set: { status: 'approved', user_id: holder.userId, workspace_id: holder.workspaceId, approved_at_ms: now } },
    );
  }

  /** Marks an approved claim delivered: exactly one poll wins the bearer. */
  deliver(hash: string, now: number): Promise<ClaimDocument | null> {
    return this.collection.findOneAndUpdate(
      { _id: hash, status: 'approved', expires_at_ms: { $gt: now } },
      { $set: { status: 'delivered' } },
    );
  }
}
