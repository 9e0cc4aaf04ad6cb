import type { OperationGroup } from '../operation-docs';

const MCP_SPEC = 'MCP server and OAuth for MCP';
/** Where the example client is sent back: registered by the registration example, asked for by the authorization one. */
const REDIRECT_URI = 'http://localhost:3000/callback';
/** The example authorization request: the authorize route's and the consent view's query. */
const AUTHORIZATION_REQUEST = {
  response_type: 'code',
  client_id: 'the client_id registration answered',
  redirect_uri: REDIRECT_URI,
  // RFC 7636's own example challenge.
  code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
  code_challenge_method: 'S256',
  scope: 'mcp',
  state: 'af0ifjsldkj',
};

export const mcp: OperationGroup = {
  tag: 'MCP',
  about:
    'The MCP server for agents (JSON-RPC over Streamable HTTP, stateless) and its OAuth 2.0 authorization ' +
    'server; an API key works as its bearer too.',
  operations: {
    'POST /api/v2/mcp': {
      summary: 'MCP JSON-RPC request',
      spec: `${MCP_SPEC}, POST /api/v2/mcp`,
      does:
        'One JSON-RPC message, one JSON answer (send `Accept: application/json, text/event-stream`): the tools are the catalog, search, the enrichment waterfalls, ' +
        "qualify, datasets and the balance, each with its REST route's price. Unauthenticated: the RFC 6750 401 " +
        'that starts OAuth discovery.',
      body: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
    },
    'GET /api/v2/mcp': {
      summary: 'MCP stream (not offered)',
      spec: `${MCP_SPEC}, GET /api/v2/mcp`,
      does: 'Without a valid bearer, the discovery 401; with one, 405: the server starts no streams.',
    },
    'DELETE /api/v2/mcp': {
      summary: 'MCP session end (not offered)',
      spec: `${MCP_SPEC}, DELETE /api/v2/mcp`,
      does: 'Always 405: the server is stateless and issues no session; this never revokes an OAuth grant.',
    },
    'GET /.well-known/oauth-protected-resource/api/v2/mcp': {
      summary: 'Protected-resource metadata',
      spec: `${MCP_SPEC}; Authentication, rule 6`,
      does: 'RFC 9728 metadata naming the authorization server of the MCP endpoint.',
    },
    'GET /.well-known/oauth-authorization-server': {
      summary: 'Authorization-server metadata',
      spec: `${MCP_SPEC}; Authentication, rule 6`,
      does: 'RFC 8414 metadata: the authorize, token, registration and revocation endpoints and what they support.',
    },
    'GET /.well-known/openai-apps-challenge': {
      summary: 'App directory domain proof',
      spec: `${MCP_SPEC}, GET /.well-known/openai-apps-challenge`,
      does: 'The configured domain-proof token as bare text; 404 when none is configured.',
    },
    'POST /api/v2/mcp/oauth/register': {
      summary: 'Register an OAuth client',
      spec: `${MCP_SPEC}, POST /api/v2/mcp/oauth/register`,
      does: 'Open dynamic client registration (RFC 7591): answers a `client_id` for a public PKCE client.',
      body: { redirect_uris: [REDIRECT_URI], client_name: 'my agent' },
    },
    'GET /api/v2/mcp/oauth/authorize': {
      summary: 'Authorization request',
      spec: `${MCP_SPEC}, GET /api/v2/mcp/oauth/authorize`,
      does:
        'Checks the request (a registered client or a client ID metadata document, PKCE S256) and sends a ' +
        'signed-in browser to the dashboard’s consent page; any other browser is sent to sign in first.',
      query: AUTHORIZATION_REQUEST,
    },
    'GET /api/v2/mcp/oauth/consent': {
      summary: 'Consent view',
      spec: `${MCP_SPEC}, GET /api/v2/mcp/oauth/authorize`,
      does:
        'What the consent page shows for an authorization request, to the signed-in browser (session cookie): ' +
        'the client, where the answer goes, the scopes, the workspaces, and the parameters its form posts back.',
      query: AUTHORIZATION_REQUEST,
    },
    'POST /api/v2/mcp/oauth/authorize': {
      summary: 'Consent',
      spec: `${MCP_SPEC}, POST /api/v2/mcp/oauth/authorize`,
      does: "The consent page's approval: identity from the session cookie; redirects with the authorization code.",
    },
    'POST /api/v2/mcp/oauth/token': {
      summary: 'Token endpoint',
      spec: `${MCP_SPEC}, POST /api/v2/mcp/oauth/token`,
      does: 'Exchanges an authorization code (with its PKCE verifier) or a refresh token for tokens; refresh tokens rotate.',
    },
    'POST /api/v2/mcp/oauth/revoke': {
      summary: 'Revoke a token',
      spec: `${MCP_SPEC}, POST /api/v2/mcp/oauth/revoke`,
      does: 'RFC 7009 revocation, the only way to end a grant; an unknown token is answered 200 too.',
    },
  },
};
