import { errorBody } from '../../contract';

/** JSON schemas of the OAuth routes for MCP (decision 0029): validation and /openapi.json. */

const text = (description: string) => ({ type: 'string', maxLength: 2000, description }) as const;

/** The authorization request (RFC 6749 §4.1.1, RFC 7636, RFC 8707): all optional strings, as the spec says. */
const authorizationProperties = {
  response_type: text('must be `code`'),
  client_id: text('a registered client id, or the https URL of the client’s metadata document'),
  redirect_uri: text('one of the client’s registered redirect URIs'),
  code_challenge: text('the base64url SHA-256 of the PKCE verifier'),
  code_challenge_method: text('must be `S256`'),
  scope: text('`mcp`, the one scope'),
  state: text('returned unchanged to the client'),
  resource: text('the MCP endpoint’s URL (RFC 8707)'),
} as const;

/** RFC 6749 §3.1: unrecognized parameters (`prompt`, `nonce`, …) are ignored, never refused. */
export const authorizationQuery = {
  type: 'object',
  properties: authorizationProperties,
  additionalProperties: true,
} as const;

/** The consent form: the same parameters, the chosen workspace and the decision. */
export const consentForm = {
  type: 'object',
  properties: {
    ...authorizationProperties,
    workspace_id: text('the workspace the grant acts for; empty: the session’s own'),
    decision: { type: 'string', enum: ['approve', 'deny'], description: 'the user’s answer' },
  },
  required: ['decision'],
  additionalProperties: true,
} as const;

export const tokenForm = {
  type: 'object',
  properties: {
    grant_type: text('`authorization_code` or `refresh_token`'),
    code: text('the authorization code'),
    redirect_uri: text('the redirect URI of the authorization request'),
    client_id: text('the registered client id'),
    code_verifier: text('the PKCE verifier'),
    refresh_token: text('the refresh token (rotated on use)'),
    resource: text('the MCP endpoint’s URL (RFC 8707)'),
    scope: text('`mcp`'),
  },
  additionalProperties: true,
} as const;

export const revocationForm = {
  type: 'object',
  properties: {
    token: text('an access or refresh token'),
    token_type_hint: text('`access_token` or `refresh_token`'),
    client_id: text('the registered client id'),
  },
  additionalProperties: true,
} as const;

/** RFC 7591 §2 client metadata; the mcp service checks it and answers RFC 7591 errors. */
export const registrationBody = {
  type: 'object',
  properties: {
    redirect_uris: {
      type: 'array',
      items: { type: 'string' },
      description: 'https, or http on a loopback host; no fragment',
    },
    client_name: { type: 'string' },
    client_uri: { type: 'string' },
    grant_types: { type: 'array', items: { type: 'string' } },
    response_types: { type: 'array', items: { type: 'string' } },
    token_endpoint_auth_method: { type: 'string', description: 'every client is public: `none`' },
    scope: { type: 'string' },
  },
  additionalProperties: true,
  propertyNames: { not: { const: '__proto__' } },
} as const;

export const registeredClient = {
  type: 'object',
  properties: {
    client_id: { type: 'string' },
    client_id_issued_at: { type: 'integer' },
    redirect_uris: { type: 'array', items: { type: 'string' } },
    grant_types: { type: 'array', items: { type: 'string' } },
    response_types: { type: 'array', items: { type: 'string' } },
    token_endpoint_auth_method: { type: 'string', enum: ['none'] },
    scope: { type: 'string' },
    client_name: { type: 'string' },
    client_uri: { type: 'string' },
  },
  required: ['client_id', 'redirect_uris', 'token_endpoint_auth_method'],
} as const;

export const tokenResponse = {
  type: 'object',
  properties: {
    access_token: { type: 'string' },
    token_type: { type: 'string', enum: ['Bearer'] },
    expires_in: { type: 'integer' },
    refresh_token: { type: 'string' },
    scope: { type: 'string' },
  },
  required: ['access_token', 'token_type', 'expires_in', 'refresh_token'],
} as const;

/** RFC 6749 §5.2 / RFC 7591 §3.2.2 errors carry `error` and `error_description` beside the spec's `detail`. */
export const oauthErrorBody = {
  ...errorBody,
  properties: { ...errorBody.properties, error_description: { type: 'string' } },
} as const;

/** 429 from registration and token: `Retry-After` (and `retry_after`) say when the window frees. */
export const rateLimitedBody = {
  ...oauthErrorBody,
  description: 'too many requests from this address (`error`: `rate_limited`)',
  properties: { ...oauthErrorBody.properties, retry_after: { type: 'integer', minimum: 1 } },
  headers: { 'retry-after': { type: 'integer', minimum: 1, description: 'seconds until the window frees' } },
} as const;

/** 401 `invalid_client` for a token request that used HTTP client authentication, with its challenge. */
export const clientAuthenticationRefused = {
  ...oauthErrorBody,
  description: 'the client sent an Authorization header; clients here are public (`none`)',
  headers: { 'www-authenticate': { type: 'string' } },
} as const;

export const protectedResourceMetadata = {
  type: 'object',
  properties: {
    resource: { type: 'string' },
    authorization_servers: { type: 'array', items: { type: 'string' } },
    scopes_supported: { type: 'array', items: { type: 'string' } },
    bearer_methods_supported: { type: 'array', items: { type: 'string' } },
    resource_name: { type: 'string' },
  },
  required: ['resource', 'authorization_servers'],
} as const;

export const authorizationServerMetadata = {
  type: 'object',
  properties: {
    issuer: { type: 'string' },
    authorization_endpoint: { type: 'string' },
    token_endpoint: { type: 'string' },
    registration_endpoint: { type: 'string' },
    revocation_endpoint: { type: 'string' },
    scopes_supported: { type: 'array', items: { type: 'string' } },
    response_types_supported: { type: 'array', items: { type: 'string' } },
    response_modes_supported: { type: 'array', items: { type: 'string' } },
    grant_types_supported: { type: 'array', items: { type: 'string' } },
    code_challenge_methods_supported: { type: 'array', items: { type: 'string' } },
    token_endpoint_auth_methods_supported: { type: 'array', items: { type: 'string' } },
    revocation_endpoint_auth_methods_supported: { type: 'array', items: { type: 'string' } },
    authorization_response_iss_parameter_supported: { type: 'boolean' },
    client_id_metadata_document_supported: { type: 'boolean' },
  },
  required: ['issuer', 'authorization_endpoint', 'token_endpoint', 'response_types_supported'],
} as const;

/** A redirect: its target is in `Location`. */
export const redirect = (description: string) =>
  ({ type: 'null', description, headers: { location: { type: 'string' } } }) as const;

const workspaceChoice = {
  type: 'object',
  properties: { id: { type: 'string' }, name: { type: 'string' }, role: { type: 'string', enum: ['owner', 'member'] } },
  required: ['id', 'name', 'role'],
} as const;

/** What the consent page shows and posts back (decision 0078). */
export const consentView = {
  type: 'object',
  properties: {
    client_id: { type: 'string', description: 'a registered id, or the URL of the client’s metadata document' },
    client_name: { type: 'string', description: 'as the client named itself; may be empty' },
    redirect_uri: { type: 'string', description: 'where the answer (the code, or the refusal) goes' },
    user_email: { type: 'string', description: 'the signed-in person' },
    scopes: {
      type: 'array',
      items: {
        type: 'object',
        properties: { name: { type: 'string' }, description: { type: 'string' } },
        required: ['name', 'description'],
      },
    },
    workspaces: {
      type: 'array',
      items: workspaceChoice,
      description: 'the session’s own first; the grant acts for the one chosen',
    },
    parameters: {
      type: 'object',
      additionalProperties: { type: 'string' },
      description: 'the authorization parameters the consent form posts back',
    },
  },
  required: ['client_id', 'client_name', 'redirect_uri', 'user_email', 'scopes', 'workspaces', 'parameters'],
} as const;

/** An empty 200 (RFC 7009 §2.2). */
export const emptyBody = { type: 'null', description: 'the token is revoked (or was never valid)' } as const;
