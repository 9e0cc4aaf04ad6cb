import { z } from 'zod';
import { oauthError, redirectUriProblem, SCOPE } from './oauth';

const text = (max: number) => z.string().max(max);

/** RFC 7591 §2 metadata this server reads; anything else a client sends is ignored. */
const metadataSchema = z.object({
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

/** What a client is known by, whether registered (RFC 7591) or described by its metadata document. */
export interface ClientMetadata {
  readonly client_name: string;
  readonly client_uri: string;
  readonly redirect_uris: string[];
  readonly grant_types: string[];
}

/**
 * The metadata, or an RFC 7591 §3.2.2 error: the shape, every redirect URI (https, or http on
 * loopback; no fragment) and the one scope.
 */
export function clientMetadataOf(body: unknown): ClientMetadata {
  const parsed = metadataSchema.safeParse(body);
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
  return {
    client_name: parsed.data.client_name ?? '',
    client_uri: parsed.data.client_uri ?? '',
    redirect_uris: parsed.data.redirect_uris,
    grant_types: parsed.data.grant_types ?? ['authorization_code', 'refresh_token'],
  };
}

/**
 * Whether a client_id is a Client ID Metadata Document URL (MCP authorization 2025-11-25, the
 * OAuth CIMD draft §3): https with a path, no fragment, credentials or dot segments. Registered
 * ids (`mcp_client_…`) are never URLs. `loopbackHttp` (a test setting) also admits http://127.0.0.1.
 */
export function isMetadataDocumentUrl(clientId: string, loopbackHttp: boolean): boolean {
  let url: URL;
  try {
    url = new URL(clientId);
  } catch {
    return false;
  }
  const https = url.protocol === 'https:' || (loopbackHttp && url.protocol === 'http:' && url.hostname === '127.0.0.1');
  const segments = clientId.split('?')[0].split('/').slice(3);
  const dotted = segments.some((segment) => segment === '.' || segment === '..');
  return https && url.pathname !== '/' && !clientId.includes('#') && !url.username && !url.password && !dotted;
}

/**
 * A fetched metadata document's client (CIMD draft §4): a JSON object whose `client_id` is the
 * very URL it was fetched from, a public client (no secret, authentication `none`), and valid
 * RFC 7591 metadata. Any problem is a sentence for `invalid_client`.
 */
export function documentClientOf(url: string, json: unknown): ClientMetadata {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) throw new Error('is not a JSON object');
  const document = json as Record<string, unknown>;
  if (document.client_id !== url) throw new Error('names another client_id than its own URL');
  if ('client_secret' in document || 'client_secret_expires_at' in document)
    throw new Error('carries a client secret, which a metadata document must not');
  const method = document.token_endpoint_auth_method;
  if (method !== undefined && method !== 'none')
    throw new Error('must use token_endpoint_auth_method none: clients here are public');
  try {
    return clientMetadataOf(document);
  } catch (error) {
    throw new Error(`is not valid client metadata: ${(error as Error).message}`);
  }
}
