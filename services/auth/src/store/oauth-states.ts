import { DocumentRepository, type DocumentStore } from '@rde/platform';

/**
 * A single-use OAuth state, by its hash: an external sign-in's (bound to the waiting claim,
 * `next` and invite) or an integration connect's (bound to workspace and provider). The PKCE
 * verifier and nonce are derived from the state with the service's secret, never stored.
 */
export type OAuthStateDocument = {
  _id: string;
  purpose: 'sign_in' | 'integration';
  redirect_uri: string;
  claim_hash: string | null;
  next: string | null;
  invite_code_hash: string | null;
  workspace_id: string | null;
  provider: string | null;
  created_at_ms: number;
  expires_at_ms: number;
  used_at_ms: number | null;
};

export class OAuthStatesRepository extends DocumentRepository<OAuthStateDocument> {
  static async open(store: DocumentStore): Promise<OAuthStatesRepository> {
    return new OAuthStatesRepository(store.collection<OAuthStateDocument>('oauth_states'));
  }

  /** Spends a live state once; null when unknown, used, expired or of another purpose. */
  spend(hash: string, purpose: OAuthStateDocument['purpose'], now: number): Promise<OAuthStateDocument | null> {
    return this.collection.findOneAndUpdate(
      { _id: hash, purpose, used_at_ms: null, expires_at_ms: { $gt: now } },
      { $set: { used_at_ms: now } },
    );
  }
}
