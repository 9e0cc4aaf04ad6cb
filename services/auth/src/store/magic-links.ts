import { DocumentRepository, indexedCollection, type DocumentStore } from '@rde/platform';

/**
 * An emailed single-use link: a sign-in link (with its code) or a set-password link. Its id is the
 * link token's hash; the code is stored hashed too. Spending either sets `used_at_ms` once.
 */
export type MagicLinkDocument = {
  _id: string;
  purpose: 'sign_in' | 'set_password';
  email: string;
  /** Empty for a set-password link. */
  code_hash: string;
  /** The hash of the waiting CLI claim this sign-in approves. */
  claim_hash: string | null;
  next: string | null;
  invite_code_hash: string | null;
  created_at_ms: number;
  expires_at_ms: number;
  used_at_ms: number | null;
};

export class MagicLinksRepository extends DocumentRepository<MagicLinkDocument> {
  static async open(store: DocumentStore): Promise<MagicLinksRepository> {
    return new MagicLinksRepository(
      await indexedCollection<MagicLinkDocument>(store, 'magic_links', [
        { keys: { email: 1, purpose: 1, created_at_ms: -1 }, name: 'email_newest' },
      ]),
    );
  }

  /** Removes a link whose email could not be sent: nothing half-created stays. */
  async remove(id: string): Promise<void> {
    await this.collection.deleteOne({ _id: id });
  }

  byId(id: string): Promise<MagicLinkDocument | null> {
    return this.collection.findOne({ _id: id });
  }

  newestSignIn(email: string): Promise<MagicLinkDocument | null> {
    return this.collection.findOne({ email, purpose: 'sign_in' }, { sort: { created_at_ms: -1 } });
  }

  /** Spends a link once: the winner of two racing spends gets it, the other null. */
  spend(id: string, now: number): Promise<MagicLinkDocument | null> {
    return this.collection.findOneAndUpdate({ _id: id, used_at_ms: null }, { $set: { used_at_ms: now } });
  }
}
