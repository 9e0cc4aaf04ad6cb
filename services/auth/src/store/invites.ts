import { DocumentRepository, indexedCollection, type DocumentStore } from '@rde/platform';

/** An invitation of an email into a workspace; its code is stored hashed. */
export type InviteDocument = {
  _id: string;
  workspace_id: string;
  email: string;
  code_hash: string;
  /** Applied as the member's spend cap on acceptance; null = uncapped. */
  spend_cap_usd: number | null;
  invited_by_user_id: string;
  created_at_ms: number;
  accepted_at_ms: number | null;
};

export class InvitesRepository extends DocumentRepository<InviteDocument> {
  static async open(store: DocumentStore): Promise<InvitesRepository> {
    return new InvitesRepository(
      await indexedCollection<InviteDocument>(store, 'invites', [
        { keys: { code_hash: 1 }, unique: true, name: 'code_hash_unique' },
        { keys: { email: 1, accepted_at_ms: 1 }, name: 'email_pending' },
      ]),
    );
  }

  /** Removes an invite whose email could not be sent. */
  async remove(id: string): Promise<void> {
    await this.collection.deleteOne({ _id: id });
  }

  inWorkspace(workspaceId: string): Promise<InviteDocument[]> {
    return this.collection.find({ workspace_id: workspaceId }, { sort: { created_at_ms: -1, _id: 1 } });
  }

  byCodeHash(hash: string): Promise<InviteDocument | null> {
    return this.collection.findOne({ code_hash: hash });
  }

  pendingFor(email: string): Promise<InviteDocument[]> {
    return this.collection.find({ email, accepted_at_ms: null });
  }

  /** Withdraws the workspace's pending invites addressed to this email or sent by this user. */
  async withdrawPending(workspaceId: string, person: { email: string; userId: string }): Promise<void> {
    const pending = { workspace_id: workspaceId, accepted_at_ms: null };
    await this.collection.deleteMany({ ...pending, email: person.email });
    await this.collection.deleteMany({ ...pending, invited_by_user_id: person.userId });
  }

  async markAccepted(id: string, now: number): Promise<void> {
    await this.collection.updateOne({ _id: id, accepted_at_ms: null }, { $set: { accepted_at_ms: now } });
  }
}
