import { randomBytes } from 'node:crypto';
import type { Clock } from '@rde/platform';
import { z } from 'zod';
import { oauthError, redirectUriProblem, SCOPE } from '../../domain/oauth';
import type { OAuthClientDocument, OAuthStore } from '../../store';

const text = (max: number) => z.string().max(max);

/** RFC 7591 §2 metadata this server reads; anything else a client sends is ignored. */
const metadata = z.object({
  redirect_uris: z.array(text(2000)).min(1).max(10),
  client_name: text(200).optional(),
  client_uri: text(2000).optional(),
  grant_types: z
    .array(z.enum(['authorization_code', 'refresh_token']))
    .max(2)
    .optional(),
  response_types: z.array(z.literal('code')).max(1).optional(),
  token_endpoint_auth_method: text(100).optional(),
  scope: text(200).optional(),
});

/** Open dynamic client registration (RFC 7591): every client is public and proves itself with PKCE. */
export class ClientRegistration {
  constructor(
    private readonly store: OAuthStore,
    private readonly clock: Clock,
  ) {}

  async register(body: unknown): Promise<Record<string, unknown>> {
    const parsed = metadata.safeParse(body);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw oauthError(400, 'invalid_client_metadata', `${issue.path.join('.') || 'body'}: ${issue.message}`);
    }
    for (const uri of parsed.data.redirect_uris) {
      const problem = redirectUriProblem(uri);
      if (problem) throw oauthError(400, 'invalid_redirect_uri', `redirect URI ${uri} ${problem}`);
    }
    const scopes = (parsed.data.scope ?? SCOPE).split(' ').filter(Boolean);
    if (scopes.some((scope) => scope !== SCOPE))
      throw oauthError(400, 'invalid_client_metadata', `the only scope is ${SCOPE}`);
    const client: OAuthClientDocument = {
      _id: `mcp_client_${randomBytes(16).toString('base64url')}`,
      client_name: parsed.data.client_name ?? '',
      client_uri: parsed.data.client_uri ?? '',
      redirect_uris: parsed.data.redirect_uris,
      grant_types: parsed.data.grant_types ?? ['authorization_code', 'refresh_token'],
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
