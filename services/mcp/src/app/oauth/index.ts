import type { Clock, DocumentStore, KeyValue } from '@rde/platform';
import type { AuthClient } from '../../clients';
import type { MetadataDocumentLimits } from '../../clients/metadata-documents';
import { openOAuthStore } from '../../store';
import { Authorization } from './authorization';
import { OAuthClients } from './clients';
import { Membership } from './membership';
import { RateLimit } from './rate-limit';
import { ClientRegistration } from './registration';
import { Tokens } from './tokens';

/** The authorization server's parts, as its gRPC handlers call them. */
export interface AuthorizationServer {
  readonly registration: ClientRegistration;
  readonly authorization: Authorization;
  readonly tokens: Tokens;
  readonly limits: { readonly register: RateLimit; readonly token: RateLimit };
}

export interface AuthorizationServerOptions {
  readonly store: DocumentStore;
  readonly counters: KeyValue;
  readonly auth: AuthClient;
  readonly clock: Clock;
  readonly registerPerMinute: number;
  readonly tokenPerMinute: number;
  /** How long the answer to "is the grant's user still a member?" is trusted at use (decision 0029). */
  readonly membershipCacheMs: number;
  /** How long an access token still works after a refresh replaced it (decision 0056). */
  readonly refreshGraceMs: number;
  /** How Client ID Metadata Documents are fetched (decision 0078). */
  readonly metadataDocuments: MetadataDocumentLimits;
}

/** The MCP endpoint's OAuth 2.0 authorization server (decision 0029). */
export async function createAuthorizationServer(options: AuthorizationServerOptions): Promise<AuthorizationServer> {
  const { counters, clock } = options;
  const store = await openOAuthStore(options.store);
  const clients = new OAuthClients(store, clock, options.metadataDocuments);
  return {
    registration: new ClientRegistration(store, clock),
    authorization: new Authorization(store, clients, options.auth, clock),
    tokens: new Tokens(
      store,
      clients,
      clock,
      new Membership(options.auth, clock, options.membershipCacheMs),
      options.refreshGraceMs,
    ),
    limits: {
      register: new RateLimit(counters, 'register', options.registerPerMinute),
      token: new RateLimit(counters, 'token', options.tokenPerMinute),
    },
  };
}
