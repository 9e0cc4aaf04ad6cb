import { randomBytes } from 'node:crypto';
import type { Clock } from '@rde/platform';
import { clientMetadataOf } from '../../domain/client-metadata';
import { SCOPE } from '../../domain/oauth';
import type { OAuthClientDocument, OAuthStore } from '../../store';

/** Open dynamic client registration (RFC 7591): every client is public and proves itself with PKCE. */
export class ClientRegistration {
  constructor(
    private readonly store: OAuthStore,
    private readonly clock: Clock,
  ) {}

  async register(body: unknown): Promise<Record<string, unknown>> {
    const metadata = clientMetadataOf(body);
    const client: OAuthClientDocument = {
      _id: `mcp_client_${randomBytes(16).toString('base64url')}`,
      ...metadata,
      scope: SCOPE,
      created_at_ms: this.clock.now(),
    };
    await this.store.clients.insert(client);
    return clientInformation(client);
  }
}

/** RFC 7591 §3.2.1: the registered metadata with the id; public clients get no secret. */
function clientInformation(client: OAuthClientDocument): Record<string, unknown> {
  return {
    client_id: client._id,
    client_id_issued_at: Math.floor(client.created_at_ms / 1000),
    redirect_uris: client.redirect_uris,
    grant_types: client.grant_types,
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
    scope: client.scope,
    ...(client.client_name && { client_name: client.client_name }),
    ...(client.client_uri && { client_uri: client.client_uri }),
  };
}
