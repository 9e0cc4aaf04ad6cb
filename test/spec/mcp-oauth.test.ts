import {
  auth,
  Client,
  StreamableHTTPClientTransport,
  UnauthorizedError,
  type OAuthClientProvider,
  type OAuthDiscoveryState,
} from '@modelcontextprotocol/client';
import { api } from '../e2e/api';
import { mode, startRde, waitUntil, type RunningRde } from '../e2e/harness';
import {
  approvedTokens,
  authorizationRequest,
  OAUTH,
  pkce,
  postForm,
  redirectParameters,
  registerClient,
  REDIRECT_URI,
  signedInOwner,
} from '../e2e/mcp-oauth';

jest.setTimeout(180_000);

const AUTHORIZE = `${OAUTH}/authorize`;
const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'spec', version: '1' } },
};

describe(`MCP OAuth authorization server (${mode})`, () => {
  let rde: RunningRde;
  let owner: Awaited<ReturnType<typeof signedInOwner>>;
  let discovery: string;

  beforeAll(async () => {
    // Limits high enough for this file's clients; mcp-oauth-limits.test.ts checks them.
    rde = await startRde({
      RDE_SANDBOX_LATENCY_SCALE: '0',
      RDE_MCP_OAUTH_REGISTER_PER_MINUTE: '1000',
      RDE_MCP_OAUTH_TOKEN_PER_MINUTE: '1000',
    });
    owner = await signedInOwner(rde);
    discovery = `resource_metadata="${rde.baseUrl}/.well-known/oauth-protected-resource/api/v2/mcp", scope="mcp"`;
  });

  afterAll(async () => {
    await rde?.stop();
  });

  const authorizePage = (query: Record<string, string>, cookie = owner.cookie) =>
    api(rde, 'GET', `${AUTHORIZE}?${new URLSearchParams(query)}`, { key: null, headers: cookie ? { cookie } : {} });
  const consentView = (query: Record<string, string>, cookie = owner.cookie) =>
    api(rde, 'GET', `${OAUTH}/consent?${new URLSearchParams(query)}`, { key: null, headers: cookie ? { cookie } : {} });
  const approve = (
    query: Record<string, string>,
    extra: Record<string, string> = {},
    headers = { cookie: owner.cookie },
  ) => postForm(rde, AUTHORIZE, { ...query, decision: 'approve', ...extra }, headers);
  const mcpPost = (token: string, headers: Record<string, string> = {}) =>
    api(rde, 'POST', '/api/v2/mcp', {
      key: token,
      body: initialize,
      headers: { accept: 'application/json, text/event-stream', ...headers },
    });

  /** Register → consent → code → tokens, for the signed-in owner. */
  const tokensFor = (headers: Record<string, string> = {}) => approvedTokens(rde, owner.cookie, headers);

  describe('metadata', () => {
    test('protected-resource metadata names the MCP endpoint exactly and this authorization server (RFC 9728)', async () => {
      const response = await api(rde, 'GET', '/.well-known/oauth-protected-resource/api/v2/mcp', { key: null });
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({
        resource: `${rde.baseUrl}/api/v2/mcp`,
        authorization_servers: [rde.baseUrl],
      });
    });

    test('authorization-server metadata offers S256 only and the iss response parameter (RFC 8414, RFC 9207)', async () => {
      const response = await api(rde, 'GET', '/.well-known/oauth-authorization-server', { key: null });
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({
        issuer: rde.baseUrl,
        authorization_endpoint: `${rde.baseUrl}${AUTHORIZE}`,
        token_endpoint: `${rde.baseUrl}${OAUTH}/token`,
        registration_endpoint: `${rde.baseUrl}${OAUTH}/register`,
        revocation_endpoint: `${rde.baseUrl}${OAUTH}/revoke`,
        code_challenge_methods_supported: ['S256'],
        response_types_supported: ['code'],
        response_modes_supported: ['query'],
        token_endpoint_auth_methods_supported: ['none'],
        authorization_response_iss_parameter_supported: true,
        client_id_metadata_document_supported: true,
      });
    });
  });

  describe('registration (RFC 7591)', () => {
    test('an open registration returns a public client id and no secret', async () => {
      const response = await api(rde, 'POST', `${OAUTH}/register`, {
        key: null,
        body: { client_name: 'Claude', redirect_uris: ['https://claude.example/callback', 'http://localhost:3334/cb'] },
      });
      expect(response.status).toBe(201);
      expect(response.body).toMatchObject({ client_id: expect.any(String), token_endpoint_auth_method: 'none' });
      expect(response.body.client_secret).toBeUndefined();
    });

    test.each([
      ['plain http off loopback', 'http://client.example/cb'],
      ['a fragment', 'https://client.example/cb#frag'],
      ['a custom scheme', 'javascript:alert(1)'],
      ['a relative URI', '/cb'],
    ])('a redirect URI with %s is refused with invalid_redirect_uri', async (_case, uri) => {
      const response = await api(rde, 'POST', `${OAUTH}/register`, { key: null, body: { redirect_uris: [uri] } });
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ error: 'invalid_redirect_uri' });
    });

    test('a client asking for a secret is registered as public; an implicit grant is refused', async () => {
      const secretless = await api(rde, 'POST', `${OAUTH}/register`, {
        key: null,
        body: { redirect_uris: [REDIRECT_URI], token_endpoint_auth_method: 'client_secret_basic' },
      });
      expect(secretless.status).toBe(201);
      expect(secretless.body.token_endpoint_auth_method).toBe('none');
      expect(secretless.body.client_secret).toBeUndefined();
      const implicit = await api(rde, 'POST', `${OAUTH}/register`, {
        key: null,
        body: { redirect_uris: [REDIRECT_URI], grant_types: ['implicit'] },
      });
      expect(implicit.status).toBe(400);
      expect(implicit.body).toMatchObject({ error: 'invalid_client_metadata' });
    });

    test('metadata of the wrong shape is 400 invalid_client_metadata (RFC 7591 §3.2.2), not a 422', async () => {
      const response = await api(rde, 'POST', `${OAUTH}/register`, {
        key: null,
        body: { redirect_uris: REDIRECT_URI },
      });
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({
        error: 'invalid_client_metadata',
        error_description: expect.stringMatching(/redirect_uris/),
      });
    });

    test('metadata without redirect URIs is refused with invalid_client_metadata', async () => {
      const response = await api(rde, 'POST', `${OAUTH}/register`, { key: null, body: { client_name: 'x' } });
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ error: 'invalid_client_metadata' });
    });
  });

  describe('authorization', () => {
    test('a signed-in browser is sent to the dashboard’s consent page, which cannot be framed and may post only here and to the client', async () => {
      const clientId = await registerClient(rde);
      const request = authorizationRequest(clientId, pkce().challenge);
      const authorize = await authorizePage(request);
      expect(authorize.status).toBe(302);
      const consentPage = new URL(authorize.headers.get('location')!, rde.baseUrl);
      expect(consentPage.pathname).toBe('/app/oauth/consent');
      expect(Object.fromEntries(consentPage.searchParams)).toEqual(request);
      const page = await api(rde, 'GET', `${consentPage.pathname}${consentPage.search}`, {
        key: null,
        headers: { cookie: owner.cookie },
      });
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toContain('text/html');
      const policy = page.headers.get('content-security-policy')!;
      expect(policy).toContain("frame-ancestors 'none'");
      expect(policy).toContain(`form-action 'self' ${new URL(REDIRECT_URI).origin};`);
      expect(page.headers.get('x-frame-options')).toBe('DENY');
      // A request the server cannot vouch for: the page's form may post only to this origin.
      const unknown = await api(rde, 'GET', `/app/oauth/consent?client_id=mcp_client_nope`, { key: null });
      expect(unknown.headers.get('content-security-policy')).toContain("form-action 'self';");
    });

    test('the consent view names the client, where the answer goes, the scope and the user’s workspaces', async () => {
      const clientId = await registerClient(rde);
      const request = authorizationRequest(clientId, pkce().challenge);
      const view = await consentView(request);
      expect(view.status).toBe(200);
      expect(view.headers.get('cache-control')).toBe('no-store');
      expect(view.body).toEqual({
        client_id: clientId,
        client_name: 'spec client',
        redirect_uri: REDIRECT_URI,
        user_email: expect.stringContaining('@'),
        scopes: [{ name: 'mcp', description: expect.stringContaining('credits') }],
        workspaces: expect.arrayContaining([expect.objectContaining({ id: owner.workspaceId, role: 'owner' })]),
        parameters: request,
      });
      const signedOut = await consentView(request, '');
      expect(signedOut.status).toBe(401);
      const refused = await consentView({ ...request, scope: 'admin' });
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({ error: 'invalid_scope' });
    });

    test('without a session the browser is sent to the sign-in page, which returns to the authorization request', async () => {
      const clientId = await registerClient(rde);
      const page = await authorizePage(authorizationRequest(clientId, pkce().challenge), '');
      expect(page.status).toBe(302);
      const location = new URL(page.headers.get('location')!, rde.baseUrl);
      expect(location.pathname).toBe('/app/auth/signin');
      expect(location.searchParams.get('next')).toContain(AUTHORIZE);
    });

    test('a client_id URL over plain http is not a metadata document: https only (invalid_client)', async () => {
      const page = await authorizePage(authorizationRequest('http://127.0.0.1:9/client.json', pkce().challenge));
      expect(page.status).toBe(400);
      expect(page.body).toMatchObject({ error: 'invalid_client' });
    });

    test('an unknown client or an unregistered redirect URI is an error here, never a redirect', async () => {
      const clientId = await registerClient(rde);
      const unknown = await authorizePage(authorizationRequest('mcp_client_nope', pkce().challenge));
      expect(unknown.status).toBe(400);
      expect(unknown.headers.get('location')).toBeNull();
      const elsewhere = await authorizePage(
        authorizationRequest(clientId, pkce().challenge, { redirect_uri: 'https://attacker.example/cb' }),
      );
      expect(elsewhere.status).toBe(400);
      expect(elsewhere.headers.get('location')).toBeNull();
    });

    test.each([
      ['plain PKCE', { code_challenge_method: 'plain' }, 'invalid_request'],
      ['no code_challenge', { code_challenge: '' }, 'invalid_request'],
      ['a response_type other than code', { response_type: 'token' }, 'unsupported_response_type'],
      ['another resource', { resource: 'https://other.example/mcp' }, 'invalid_target'],
      ['an unknown scope', { scope: 'admin' }, 'invalid_scope'],
    ])('%s goes back to the client as an error with state and iss', async (_case, override, error) => {
      const clientId = await registerClient(rde);
      const page = await authorizePage(authorizationRequest(clientId, pkce().challenge, override));
      expect(page.status).toBe(303);
      const returned = redirectParameters(page);
      expect(returned.get('error')).toBe(error);
      expect(returned.get('state')).toBe('state-123');
      expect(returned.get('iss')).toBe(rde.baseUrl);
    });

    test('approval redirects 303 with code, state and iss (RFC 9207)', async () => {
      const clientId = await registerClient(rde);
      const approved = await approve(authorizationRequest(clientId, pkce().challenge), {
        workspace_id: owner.workspaceId,
      });
      expect(approved.status).toBe(303);
      expect(approved.headers.get('location')!.startsWith(`${REDIRECT_URI}?`)).toBe(true);
      const returned = redirectParameters(approved);
      expect(returned.get('code')).toMatch(/^rde_mcp_code_/);
      expect(returned.get('state')).toBe('state-123');
      expect(returned.get('iss')).toBe(rde.baseUrl);
    });

    test('unrecognized authorization parameters are ignored (RFC 6749 §3.1), not echoed, and the state comes back', async () => {
      const clientId = await registerClient(rde);
      const request = authorizationRequest(clientId, pkce().challenge, { state: 'opaque <&> state' });
      const extra = { prompt: 'consent', nonce: 'n-1' };
      const page = await authorizePage({ ...request, ...extra });
      expect(page.status).toBe(302);
      expect(page.headers.get('location')).not.toContain('prompt');
      expect((await consentView({ ...request, ...extra })).body.parameters).toEqual(request);
      const approved = await approve({ ...request, ...extra }, { workspace_id: owner.workspaceId });
      expect(approved.status).toBe(303);
      expect(redirectParameters(approved).get('code')).toMatch(/^rde_mcp_code_/);
      expect(redirectParameters(approved).get('state')).toBe('opaque <&> state');
    });

    test('denial redirects 303 with access_denied', async () => {
      const clientId = await registerClient(rde);
      const denied = await approve(authorizationRequest(clientId, pkce().challenge), { decision: 'deny' });
      expect(denied.status).toBe(303);
      expect(redirectParameters(denied).get('error')).toBe('access_denied');
      expect(redirectParameters(denied).get('code')).toBeNull();
    });

    test('a cross-site consent POST (no SameSite=Lax cookie) gets 401 and no code', async () => {
      const clientId = await registerClient(rde);
      const noCookie = await approve(authorizationRequest(clientId, pkce().challenge), {}, {} as { cookie: string });
      expect(noCookie.status).toBe(401);
      expect(noCookie.headers.get('location')).toBeNull();
      const foreignOrigin = await approve(authorizationRequest(clientId, pkce().challenge), {}, {
        cookie: owner.cookie,
        origin: 'https://attacker.example',
      } as { cookie: string });
      expect(foreignOrigin.status).toBe(401);
    });

    test('the consent page’s own form (Sec-Fetch-Site same-origin, Origin null under no-referrer) is accepted; a same-site one is not', async () => {
      const clientId = await registerClient(rde);
      const ownForm = await approve(authorizationRequest(clientId, pkce().challenge), {}, {
        cookie: owner.cookie,
        origin: 'null',
        'sec-fetch-site': 'same-origin',
      } as { cookie: string });
      expect(ownForm.status).toBe(303);
      expect(redirectParameters(ownForm).get('code')).toMatch(/^rde_mcp_code_/);
      const sibling = await approve(authorizationRequest(clientId, pkce().challenge), {}, {
        cookie: owner.cookie,
        'sec-fetch-site': 'same-site',
      } as { cookie: string });
      expect(sibling.status).toBe(401);
    });

    test('a workspace the user does not belong to is refused', async () => {
      const clientId = await registerClient(rde);
      const response = await approve(authorizationRequest(clientId, pkce().challenge), { workspace_id: 'ws_dev' });
      expect(response.status).toBe(404);
      expect(response.headers.get('location')).toBeNull();
    });
  });

  describe('token endpoint', () => {
    test('a code and its PKCE verifier give rotated-refresh bearer tokens, never cached', async () => {
      const { token } = await tokensFor();
      expect(token.status).toBe(200);
      expect(token.headers.get('cache-control')).toBe('no-store');
      expect(token.body).toMatchObject({
        access_token: expect.stringMatching(/^rde_mcp_at_/),
        refresh_token: expect.stringMatching(/^rde_mcp_rt_/),
        token_type: 'Bearer',
        expires_in: 3600,
      });
      expect((await mcpPost(token.body.access_token)).status).toBe(200);
    });

    test('a wrong verifier is invalid_grant; a missing one is invalid_request', async () => {
      const clientId = await registerClient(rde);
      const { challenge } = pkce();
      const code = redirectParameters(await approve(authorizationRequest(clientId, challenge))).get('code')!;
      const form = { grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI, client_id: clientId };
      const wrong = await postForm(rde, `${OAUTH}/token`, { ...form, code_verifier: pkce().verifier });
      expect(wrong.status).toBe(400);
      expect(wrong.body).toMatchObject({ error: 'invalid_grant' });
      expect(wrong.headers.get('cache-control')).toBe('no-store');
      const missing = await postForm(rde, `${OAUTH}/token`, form);
      expect(missing.status).toBe(400);
      expect(missing.body).toMatchObject({ error: 'invalid_request' });
    });

    test('a code used twice is refused and revokes what it issued', async () => {
      const { clientId, code, verifier, token } = await tokensFor();
      const again = await postForm(rde, `${OAUTH}/token`, {
        grant_type: 'authorization_code',
        code,
        redirect_uri: REDIRECT_URI,
        client_id: clientId,
        code_verifier: verifier,
      });
      expect(again.status).toBe(400);
      expect(again.body).toMatchObject({ error: 'invalid_grant' });
      const refused = await mcpPost(token.body.access_token);
      expect(refused.status).toBe(401);
      expect(refused.headers.get('www-authenticate')).toMatch(/^Bearer error="invalid_token"/);
    });

    test('a refresh token works once: it is rotated, and replaying the old one revokes the grant', async () => {
      const { clientId, token } = await tokensFor();
      const refresh = (refreshToken: string) =>
        postForm(rde, `${OAUTH}/token`, {
          grant_type: 'refresh_token',
          refresh_token: refreshToken,
          client_id: clientId,
        });
      const rotated = await refresh(token.body.refresh_token);
      expect(rotated.status).toBe(200);
      expect(rotated.body.refresh_token).not.toBe(token.body.refresh_token);
      expect((await mcpPost(rotated.body.access_token)).status).toBe(200);
      const replayed = await refresh(token.body.refresh_token);
      expect(replayed.status).toBe(400);
      expect(replayed.body).toMatchObject({ error: 'invalid_grant' });
      expect((await mcpPost(rotated.body.access_token)).status).toBe(401);
      expect((await refresh(rotated.body.refresh_token)).status).toBe(400);
    });

    test('an unknown client is invalid_client (400); an unknown grant type is unsupported_grant_type', async () => {
      const unknown = await postForm(rde, `${OAUTH}/token`, {
        grant_type: 'authorization_code',
        client_id: 'nope',
        code: 'x',
      });
      expect(unknown.status).toBe(400);
      expect(unknown.body).toMatchObject({ error: 'invalid_client', error_description: expect.any(String) });
      const clientId = await registerClient(rde);
      const grant = await postForm(rde, `${OAUTH}/token`, { grant_type: 'password', client_id: clientId });
      expect(grant.status).toBe(400);
      expect(grant.body).toMatchObject({ error: 'unsupported_grant_type' });
      const missing = await postForm(rde, `${OAUTH}/token`, { client_id: clientId });
      expect(missing.status).toBe(400);
      expect(missing.body).toMatchObject({ error: 'invalid_request' });
    });

    test('a client authenticating with the Authorization header gets 401 invalid_client with a challenge in its scheme', async () => {
      const { clientId, token } = await tokensFor();
      const basic = Buffer.from(`${clientId}:secret`).toString('base64');
      const refused = await postForm(
        rde,
        `${OAUTH}/token`,
        { grant_type: 'refresh_token', refresh_token: token.body.refresh_token, client_id: clientId },
        { authorization: `Basic ${basic}` },
      );
      expect(refused.status).toBe(401);
      expect(refused.headers.get('www-authenticate')).toBe(`Basic realm="${rde.baseUrl}", error="invalid_client"`);
      expect(refused.body).toMatchObject({ error: 'invalid_client', error_description: expect.any(String) });
      expect(refused.headers.get('cache-control')).toBe('no-store');
      // Nothing was spent: the refresh token still works once.
      const form = { grant_type: 'refresh_token', refresh_token: token.body.refresh_token, client_id: clientId };
      expect((await postForm(rde, `${OAUTH}/token`, form)).status).toBe(200);
    });

    test('a token request for a scope other than mcp is invalid_scope and spends nothing', async () => {
      const { clientId, token } = await tokensFor();
      const form = { grant_type: 'refresh_token', refresh_token: token.body.refresh_token, client_id: clientId };
      const wider = await postForm(rde, `${OAUTH}/token`, { ...form, scope: 'mcp admin' });
      expect(wider.status).toBe(400);
      expect(wider.body).toMatchObject({ error: 'invalid_scope' });
      const same = await postForm(rde, `${OAUTH}/token`, { ...form, scope: 'mcp' });
      expect(same.status).toBe(200);
      expect(same.body).toMatchObject({ token_type: 'Bearer', scope: 'mcp' });
    });

    test('a client that registered no refresh_token grant may not refresh: unauthorized_client', async () => {
      const clientId = await registerClient(rde, { grant_types: ['authorization_code'] });
      const refresh = await postForm(rde, `${OAUTH}/token`, {
        grant_type: 'refresh_token',
        refresh_token: 'rde_mcp_rt_any',
        client_id: clientId,
      });
      expect(refresh.status).toBe(400);
      expect(refresh.body).toMatchObject({ error: 'unauthorized_client' });
    });

    test('a malformed token or revocation request is 400 invalid_request with a description, not a 422', async () => {
      const tooLong = await postForm(rde, `${OAUTH}/token`, {
        grant_type: 'authorization_code',
        client_id: 'x',
        code: 'c'.repeat(2001),
      });
      expect(tooLong.status).toBe(400);
      expect(tooLong.body).toMatchObject({
        error: 'invalid_request',
        error_description: expect.stringMatching(/code/),
      });
      expect(tooLong.headers.get('cache-control')).toBe('no-store');
      const revoke = await postForm(rde, `${OAUTH}/revoke`, { token: 't'.repeat(2001) });
      expect(revoke.status).toBe(400);
      expect(revoke.body).toMatchObject({ error: 'invalid_request' });
    });

    test('a JSON token request is refused with 415: the endpoint takes forms', async () => {
      const response = await api(rde, 'POST', `${OAUTH}/token`, { key: null, body: { grant_type: 'refresh_token' } });
      expect(response.status).toBe(415);
      expect(response.body).toMatchObject({ error: 'invalid_request', error_description: expect.any(String) });
    });
  });

  describe('the MCP endpoint with access tokens', () => {
    test('an access token acts for the one workspace it was granted for, whatever X-Workspace-Id says', async () => {
      const { token } = await tokensFor();
      const response = await api(rde, 'POST', '/api/v2/mcp', {
        key: token.body.access_token,
        body: { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'get_balance', arguments: {} } },
        headers: {
          accept: 'application/json, text/event-stream',
          'x-workspace-id': 'ws_dev',
          'mcp-protocol-version': '2025-06-18',
        },
      });
      expect(response.status).toBe(200);
      const teamBalance = (await api(rde, 'GET', '/billing/balance', { key: owner.owner })).body.balance;
      expect(response.body.result.structuredContent.balance).toBe(teamBalance);
    });

    test('a token is bound to the configured resource: forged proxy headers at consent or use change nothing (RFC 8707)', async () => {
      const forged = { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'evil.example' };
      const { token } = await tokensFor(forged);
      expect(token.status).toBe(200);
      expect((await mcpPost(token.body.access_token)).status).toBe(200);
      expect((await mcpPost(token.body.access_token, forged)).status).toBe(200);
    });
  });

  describe('revocation (RFC 7009)', () => {
    test('an unknown token is revoked with 200', async () => {
      const response = await postForm(rde, `${OAUTH}/revoke`, { token: 'rde_mcp_at_unknown', client_id: 'any' });
      expect(response.status).toBe(200);
    });

    test('revoking the refresh token revokes the grant: its access token gets the discovery 401', async () => {
      const { clientId, token } = await tokensFor();
      const revoked = await postForm(rde, `${OAUTH}/revoke`, { token: token.body.refresh_token, client_id: clientId });
      expect(revoked.status).toBe(200);
      const refused = await mcpPost(token.body.access_token);
      expect(refused.status).toBe(401);
      expect(refused.headers.get('www-authenticate')).toContain(discovery);
      const refresh = await postForm(rde, `${OAUTH}/token`, {
        grant_type: 'refresh_token',
        refresh_token: token.body.refresh_token,
        client_id: clientId,
      });
      expect(refresh.status).toBe(400);
    });

    test('DELETE on the MCP endpoint does not revoke the grant', async () => {
      const { token } = await tokensFor();
      expect((await api(rde, 'DELETE', '/api/v2/mcp', { key: token.body.access_token })).status).toBe(405);
      expect((await mcpPost(token.body.access_token)).status).toBe(200);
    });
  });

  describe('the official SDK client end to end', () => {
    /** An in-memory OAuth client as an MCP host keeps one; the "browser" is this test. */
    class MemoryProvider implements OAuthClientProvider {
      client?: Awaited<ReturnType<NonNullable<OAuthClientProvider['clientInformation']>>>;
      saved?: Awaited<ReturnType<OAuthClientProvider['tokens']>>;
      verifier = '';
      authorizationUrl?: URL;
      get redirectUrl() {
        return REDIRECT_URI;
      }
      get clientMetadata() {
        return { client_name: 'rde-e2e', redirect_uris: [REDIRECT_URI], token_endpoint_auth_method: 'none' };
      }
      clientInformation() {
        return this.client;
      }
      saveClientInformation(client: NonNullable<MemoryProvider['client']>) {
        this.client = client;
      }
      tokens() {
        return this.saved;
      }
      saveTokens(tokens: NonNullable<MemoryProvider['saved']>) {
        this.saved = tokens;
      }
      redirectToAuthorization(url: URL) {
        this.authorizationUrl = url;
      }
      saveCodeVerifier(verifier: string) {
        this.verifier = verifier;
      }
      codeVerifier() {
        return this.verifier;
      }
      discovery?: OAuthDiscoveryState;
      saveDiscoveryState(state: OAuthDiscoveryState) {
        this.discovery = state;
      }
      discoveryState() {
        return this.discovery;
      }
    }

    test('register → consent → token → tools → a paid call charged once → refresh → revoke → discovery 401', async () => {
      const mcpUrl = new URL(`${rde.baseUrl}/api/v2/mcp`);
      const provider = new MemoryProvider();
      const connect = async () => {
        const client = new Client({ name: 'rde-oauth-e2e', version: '1.0.0' });
        await client.connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider }));
        return client;
      };
      const firstTransport = new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider });
      await expect(
        new Client({ name: 'rde-oauth-e2e', version: '1.0.0' }).connect(firstTransport),
      ).rejects.toBeInstanceOf(UnauthorizedError);
      expect(provider.client?.client_id).toBeDefined();

      // The browser: the consent page through the signed-in session, then the approval.
      const url = provider.authorizationUrl!;
      const page = await api(rde, 'GET', `${url.pathname}${url.search}`, {
        key: null,
        headers: { cookie: owner.cookie },
      });
      expect(new URL(page.headers.get('location')!, rde.baseUrl).pathname).toBe('/app/oauth/consent');
      const approved = await approve(Object.fromEntries(url.searchParams), { workspace_id: owner.workspaceId });
      expect(approved.status).toBe(303);
      await firstTransport.finishAuth(redirectParameters(approved));

      const client = await connect();
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toContain('call_tool_method');

      const result = await client.callTool({
        name: 'call_tool_method',
        arguments: {
          tool: 'pplgraph',
          method: 'search',
          payload: { query: { job_title: ['Software Engineer'] }, size: 2 },
        },
      });
      expect(result.isError).toBeFalsy();
      const runId = (result.structuredContent as { _meta: { run_id: string } })._meta.run_id;
      const balance = () => api(rde, 'GET', '/billing/balance', { key: owner.owner });
      await waitUntil(async () => (await balance()).body._meta.settled === true, 30_000);
      const ledger = (await balance()).body.recent_ledger as { run_id: string; kind: string; amount: number }[];
      expect(ledger.filter((entry) => entry.run_id === runId)).toEqual([
        expect.objectContaining({ kind: 'charge', amount: -2 }),
      ]);
      await client.close();

      const before = provider.saved!;
      expect(await auth(provider, { serverUrl: mcpUrl })).toBe('AUTHORIZED');
      expect(provider.saved!.refresh_token).not.toBe(before.refresh_token);
      // A refresh replaces the pair; the previous access token serves calls in flight for the grace (decision 0056).
      expect((await mcpPost(before.access_token)).status).toBe(200);
      const refreshed = await connect();
      expect((await refreshed.listTools()).tools.length).toBeGreaterThan(0);
      await refreshed.close();

      const revoked = await postForm(rde, `${OAUTH}/revoke`, {
        token: provider.saved!.access_token,
        client_id: provider.client!.client_id,
      });
      expect(revoked.status).toBe(200);
      const refused = await mcpPost(provider.saved!.access_token);
      expect(refused.status).toBe(401);
      expect(refused.headers.get('www-authenticate')).toContain(discovery);
    });
  });
});
