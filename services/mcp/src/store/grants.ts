import { DocumentRepository, indexedCollection, type DocumentStore, type Filter } from '@rde/platform';

/**
 * One consent: the code it was approved with, then the access and refresh tokens it issued. Every
 * secret is kept as its SHA-256 only. One document per grant, so redeeming the code, rotating the
 * refresh token and revoking are each one conditional single-document update (safe with replicas).
 */
export type GrantDocument = {
  _id: string;
  client_id: string;
  user_id: string;
  workspace_id: string;
  role: string;
  /** The protected resource (RFC 8707) every token of this grant is bound to. */
  resource: string;
  scope: string;
  redirect_uri: string;
  /** Whether the authorization request named the redirect URI (then the token request must repeat it). */
  redirect_uri_sent: boolean;
  code_hash: string;
  code_challenge: string;
  code_expires_at_ms: number;
  code_used: boolean;
  /** '' until the code is redeemed. */
  access_hash: string;
  access_expires_at_ms: number;
  refresh_hash: string;
  /** The refresh token rotation replaced: presenting it again is a replay and revokes the grant. */
  previous_refresh_hash: string;
  refresh_expires_at_ms: number;
  /** The access token the last rotation replaced: it keeps working until its grace ends (decision 0056). */
  previous_access_hash: string;
  previous_access_expires_at_ms: number;
  revoked: boolean;
  created_at_ms: number;
};

/** The hashes a redemption or a rotation writes. */
export interface IssuedHashes {
  access_hash: string;
  access_expires_at_ms: number;
  refresh_hash: string;
  refresh_expires_at_ms: number;
}

/** The access token a rotation replaced and until when it still works. */
export type RetiredAccess = Pick<GrantDocument, 'previous_access_hash' | 'previous_access_expires_at_ms'>;

export class Grants extends DocumentRepository<GrantDocument> {
  static async open(store: DocumentStore): Promise<Grants> {
    return new Grants(
      await indexedCollection<GrantDocument>(store, 'oauth_grants', [
        { keys: { code_hash: 1 }, unique: true, name: 'code_hash_unique' },
        { keys: { access_hash: 1 }, name: 'access_hash' },
        { keys: { refresh_hash: 1 }, name: 'refresh_hash' },
        { keys: { previous_refresh_hash: 1 }, name: 'previous_refresh_hash' },
        { keys: { previous_access_hash: 1 }, name: 'previous_access_hash' },
      ]),
    );
  }

  /** Lookups by a secret's hash; the empty hash of an unissued token never matches. */
  byHash(
    field: 'code_hash' | 'access_hash' | 'previous_access_hash' | 'refresh_hash' | 'previous_refresh_hash',
    hash: string,
  ) {
    return this.collection.findOne({ [field]: hash } as Filter);
  }

  /** Redeems an unused code of a live grant: true when this call did (a second redemption finds it used). */
  async redeemCode(grantId: string, issued: IssuedHashes): Promise<boolean> {
    const filter = { _id: grantId, code_used: false, revoked: false };
    return (await this.collection.updateOne(filter, { $set: { ...issued, code_used: true } })).matched === 1;
  }

  /** Replaces a live refresh token with a new pair, keeping the access token it retires: true when this call rotated it. */
  async rotate(grantId: string, refreshHash: string, issued: IssuedHashes, retired: RetiredAccess): Promise<boolean> {
    const filter = { _id: grantId, refresh_hash: refreshHash, revoked: false };
    const update = { $set: { ...issued, ...retired, previous_refresh_hash: refreshHash } };
    return (await this.collection.updateOne(filter, update)).matched === 1;
  }

  /** Revokes the grant and so every token it issued. */
  async revoke(grantId: string): Promise<void> {
    await this.collection.updateOne({ _id: grantId }, { $set: { revoked: true } });
  }
}
