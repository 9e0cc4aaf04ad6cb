import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { api } from '../e2e/api';
import { mode, startRde, type RunningRde } from '../e2e/harness';
import {
  authorizationRequest,
  OAUTH,
  pkce,
  postForm,
  redirectParameters,
  REDIRECT_URI,
  signedInOwner,
} from '../e2e/mcp-oauth';

jest.setTimeout(180_000);

/**
 * Client ID Metadata Documents (MCP authorization 2025-11-25, decision 0078): a client_id that is
 * the URL of the client's JSON metadata, fetched by RDE. The documents are served here, on
 * 127.0.0.1, which RDE fetches only because this file turns the test setting on.
 */
describe(`MCP OAuth: client ID metadata documents (${mode})`, () => {
  let rde: RunningRde;
  let owner: Awaited<ReturnType<typeof signedInOwner>>;
  let documents: Server;
  let origin: string;
  /** How many times RDE fetched each path. */
  const fetched = new Map<string, number>();
  /** Paths whose answers never come (held until the server closes). */
  const held: ServerResponse[] = [];

  const urlOf = (path: string) => `${origin}${path}`;
  const documentOf = (path: string, extra: Record<string, unknown> = {}) => ({
    client_id: urlOf(path),
    client_name: 'Metadata Agent',
    redirect_uris: [REDIRECT_URI],
    token_endpoint_auth_method: 'none',
    ...extra,
  });
  /** What each path answers: a status, headers and a body. */
  const answers: Record<string, () => { status?: number; headers?: Record<string, string>; body?: string }> = {
    '/good.json': () => ({
      headers: { 'cache-control': 'max-age=300' },
      body: JSON.stringify(documentOf('/good.json')),
    }),
    '/uncached.json': () => ({
      headers: { 'cache-control': 'no-store' },
      body: JSON.stringify(documentOf('/uncached.json')),
    }),
    '/mismatch.json': () => ({ body: JSON.stringify(documentOf('/good.json')) }),
    '/big.json': () => ({
      body: JSON.stringify(documentOf('/big.json', { client_uri: `https://a.example/${'x'.repeat(6000)}` })),
    }),
    '/page.html': () => ({ headers: { 'content-type': 'text/html' }, body: '<html>not a document</html>' }),
    '/broken.json': () => ({ body: '{"client_id": ' }),
    '/redirect.json': () => ({ status: 302, headers: { location: 'http://169.254.169.254/latest/meta-data/' } }),
    '/bad-redirect-uri.json': () => ({
      body: JSON.stringify(documentOf('/bad-redirect-uri.json', { redirect_uris: ['http://attacker.example/cb'] })),
    }),
    '/secret.json': () => ({ body: JSON.stringify(documentOf('/secret.json', { client_secret: 's3cret' })) }),
  };

  beforeAll(async () => {
    documents = createServer((request, response) => {
      const path = request.url ?? '';
      fetched.set(path, (fetched.get(path) ?? 0) + 1);
      if (path === '/slow.json') return void held.push(response);
      const answer = answers[path]?.() ?? { status: 404, body: '{}' };
      response.writeHead(answer.status ?? 200, { 'content-type': 'application/json', ...answer.headers });
      response.end(answer.body);
    });
    await new Promise<void>((resolve) => documents.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(documents.address() as AddressInfo).port}`;
    rde = await startRde({
      RDE_MCP_CIMD_ALLOW_LOOPBACK_HTTP: 'true',
      RDE_MCP_CIMD_TIMEOUT_MS: '1000',
      RDE_MCP_OAUTH_REGISTER_PER_MINUTE: '1000',
      RDE_MCP_OAUTH_TOKEN_PER_MINUTE: '1000',
    });
    owner = await signedInOwner(rde);
  });

  afterAll(async () => {
    held.forEach((response) => response.destroy());
    await new Promise((resolve) => documents?.close(resolve));
    await rde?.stop();
  });

  const consentFor = (clientId: string) =>
    api(rde, 'GET', `${OAUTH}/consent?${new URLSearchParams(authorizationRequest(clientId, pkce().challenge))}`, {
      key: null,
      headers: { cookie: owner.cookie },
    });

  test('the authorization server metadata says client ID metadata documents are supported', async () => {
    const metadata = await api(rde, 'GET', '/.well-known/oauth-authorization-server', { key: null });
    expect(metadata.body.client_id_metadata_document_supported).toBe(true);
  });

  test('a client known only by its document: consent names it, the code and PKCE give tokens, the MCP endpoint takes them', async () => {
    const clientId = urlOf('/good.json');
    const consent = await consentFor(clientId);
    expect(consent.status).toBe(200);
    expect(consent.body).toMatchObject({
      client_id: clientId,
      client_name: 'Metadata Agent',
      redirect_uri: REDIRECT_URI,
    });

    const { verifier, challenge } = pkce();
    const approved = await postForm(
      rde,
      `${OAUTH}/authorize`,
      { ...authorizationRequest(clientId, challenge), decision: 'approve' },
      { cookie: owner.cookie },
    );
    expect(approved.status).toBe(303);
    const code = redirectParameters(approved).get('code')!;
    const token = await postForm(rde, `${OAUTH}/token`, {
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT_URI,
      client_id: clientId,
      code_verifier: verifier,
    });
    expect(token.status).toBe(200);
    const listed = await api(rde, 'POST', '/api/v2/mcp', {
      key: token.body.access_token,
      body: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      headers: { accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' },
    });
    expect(listed.status).toBe(200);
    // max-age=300: consent, approval and token exchange read one fetch.
    expect(fetched.get('/good.json')).toBe(1);
  });

  test('a document that says no-store is fetched again at every use', async () => {
    const clientId = urlOf('/uncached.json');
    expect((await consentFor(clientId)).status).toBe(200);
    expect((await consentFor(clientId)).status).toBe(200);
    expect(fetched.get('/uncached.json')).toBe(2);
  });

  test.each([
    ['names another client_id', '/mismatch.json', /another client_id/],
    ['is larger than the limit', '/big.json', /larger than 5120 bytes/],
    ['is not JSON', '/page.html', /not application\/json/],
    ['is malformed JSON', '/broken.json', /not valid JSON/],
    ['redirects (here to the cloud metadata address)', '/redirect.json', /redirect/],
    ['registers a redirect URI that is neither https nor loopback', '/bad-redirect-uri.json', /redirect URI/],
    ['carries a client secret', '/secret.json', /secret/],
    ['never answers', '/slow.json', /within 1000 ms/],
    ['is not there', '/missing.json', /HTTP 404/],
  ])('a document that %s is invalid_client, shown here and never redirected', async (_case, path, reason) => {
    const consent = await consentFor(urlOf(path));
    expect(consent.status).toBe(400);
    expect(consent.body).toMatchObject({ error: 'invalid_client', error_description: expect.stringMatching(reason) });
    const authorize = await api(
      rde,
      'GET',
      `${OAUTH}/authorize?${new URLSearchParams(authorizationRequest(urlOf(path), pkce().challenge))}`,
      { key: null, headers: { cookie: owner.cookie } },
    );
    expect(authorize.status).toBe(400);
    expect(authorize.headers.get('location')).toBeNull();
  });

  test.each([
    ['a private address', 'https://10.20.30.40/client.json', /10\.20\.30\.40, which is not a public address/],
    ['the cloud metadata address', 'https://169.254.169.254/client.json', /not a public address/],
    ['a name that resolves to loopback', 'https://localhost/client.json', /resolves to .*not a public address/],
    ['an IPv6 loopback literal', 'https://[::1]/client.json', /not a public address/],
  ])('a document URL on %s is refused before any request is sent', async (_case, clientId, reason) => {
    const consent = await consentFor(clientId);
    expect(consent.status).toBe(400);
    expect(consent.body).toMatchObject({ error: 'invalid_client', error_description: expect.stringMatching(reason) });
  });

  test('a token request from a client whose document is refused is invalid_client', async () => {
    const token = await postForm(rde, `${OAUTH}/token`, {
      grant_type: 'authorization_code',
      code: 'rde_mcp_code_x',
      code_verifier: pkce().verifier,
      client_id: urlOf('/mismatch.json'),
    });
    expect(token.status).toBe(400);
    expect(token.body).toMatchObject({ error: 'invalid_client', error_description: expect.stringMatching(/another/) });
  });
});
