import type { DocumentStore } from '@rde/platform';
import { Grants } from './grants';
import { OAuthClients } from './oauth-clients';

export type { GrantDocument, IssuedHashes } from './grants';
export type { OAuthClientDocument } from './oauth-clients';

/** The mcp service's collections: the authorization server's clients and grants. */
export interface OAuthStore {
  readonly clients: OAuthClients;
  readonly grants: Grants;
}

export async function openOAuthStore(store: DocumentStore): Promise<OAuthStore> {
  return { clients: OAuthClients.open(store), grants: await Grants.open(store) };
}
