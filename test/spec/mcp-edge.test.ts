import http from 'node:http';
import { api } from '../e2e/api';
import { mode, startRde, type RunningRde } from '../e2e/harness';
import { approvedTokens, OAUTH, postForm, REDIRECT_URI, signedInOwner } from '../e2e/mcp-oauth';

jest.setTimeout(120_000);

const MCP = '/api/v2/mcp';
const ACCEPT = 'application/json, text/event-stream';
/** A browser origin the deployment allows besides its own (an inspector's page). */
const ALLOWED_ORIGIN = 'https://inspector.example';
const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'edge', version: '1' } },
};
/** A tools/list of each era: the 2025 lifecycle's, and the 2026-07-28 per-request envelope. */
const ERAS = [
  {
    era: '2025-11-25',
    message: { jsonrpc: '2.0', id: 2, method: 'tools/list' },
    headers: {} as Record<string, string>,
  },
  {
    era: '2026-07-28',
    headers: { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list' },
    message: {
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/list',
      params: {
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientInfo': { name: 'edge', version: '1' },
          'io.modelcontextprotocol/clientCapabilities': {},
        },
      },
    },
  },
] as const;

describe(`MCP edge: origins, public URL, cited routes, transport details (${mode})`, () => {
  let rde: RunningRde;

  beforeAll(async () => {
    rde = await startRde({ RDE_SANDBOX_LATENCY_SCALE: '0', RDE_MCP_ALLOWED_ORIGINS: 'inspector.example' });
  });

  afterAll(async () => {
    await rde?.stop();
  });

  /** fetch sends the URL's Host whatever the headers say: a forged Host needs node:http. */
  function withHost(method: string, path: string, headers: Record<string, string>, body?: unknown) {
    return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>((resolve, reject) => {
      const request = http.request(`${rde.baseUrl}${path}`, { method, headers }, (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, body: text }));
      });
      request.on('error', reject);
      request.end(body === undefined ? undefined : JSON.stringify(body));
    });
  }

  const mcpPost = (body: unknown, headers: Record<string, string> = {}) =>
    api(rde, 'POST', MCP, { body, headers: { accept: ACCEPT, 'mcp-protocol-version': '2025-11-25', ...headers } });

  describe('Origin and Host (Streamable HTTP: 403 for an invalid Origin, DNS rebinding)', () => {
    test.each(ERAS)('a foreign Origin is 403 with a valid bearer ($era)', async ({ message, headers }) => {
      const response = await mcpPost(message, { ...headers, origin: 'https://evil.example' });
      expect(response.status).toBe(403);
      expect(response.body).toMatchObject({ jsonrpc: '2.0', error: { code: -32000 }, id: null });
    });

    test.each(ERAS)(
      'no Origin, the public origin or a configured one is served ($era)',
      async ({ message, headers }) => {
        for (const origin of [{}, { origin: rde.baseUrl }, { origin: ALLOWED_ORIGIN }] as Record<string, string>[]) {
          const response = await mcpPost(message, { ...headers, ...origin });
          expect([response.status, response.body.result?.tools?.length > 0]).toEqual([200, true]);
        }
      },
    );

    test('the opaque null Origin is 403', async () => {
      expect((await mcpPost(initialize, { origin: 'null' })).status).toBe(403);
    });

    test('a Host other than the public URL’s (DNS rebinding) is 403', async () => {
      const headers = { authorization: `Bearer ${rde.ownerKey}`, 'content-type': 'application/json', accept: ACCEPT };
      expect((await withHost('POST', MCP, headers, initialize)).status).toBe(200);
      expect((await withHost('POST', MCP, { ...headers, host: 'evil.example' }, initialize)).status).toBe(403);
    });
  });

  describe('discovery from the configured public URL', () => {
    const forged = { host: 'evil.example', 'x-forwarded-proto': 'https', 'x-forwarded-host': 'evil.example' };
    const documents = [
      '/.well-known/oauth-protected-resource/api/v2/mcp',
      '/.well-known/oauth-authorization-server',
    ] as const;

    test.each(documents)('a forged Host or X-Forwarded-* changes nothing in %s', async (path) => {
      const honest = await api(rde, 'GET', path, { key: null });
      const forgedAnswer = await withHost('GET', path, forged);
      expect([honest.status, forgedAnswer.status]).toEqual([200, 200]);
      expect(JSON.parse(forgedAnswer.body)).toEqual(honest.body);
      expect(honest.body.resource ?? honest.body.issuer).toMatch(new RegExp(`^${rde.baseUrl}`));
    });

    test('a forged Host or X-Forwarded-* changes nothing in the challenge’s resource_metadata', async () => {
      const headers = { 'content-type': 'application/json', accept: ACCEPT };
      const honest = await withHost('POST', MCP, headers, initialize);
      const forgedAnswer = await withHost('POST', MCP, { ...headers, ...forged }, initialize);
      const challenge = honest.headers['www-authenticate'];
      expect(challenge).toContain(`resource_metadata="${rde.baseUrl}/.well-known/oauth-protected-resource${MCP}"`);
      expect(forgedAnswer.headers['www-authenticate']).toBe(challenge);
    });
  });

  describe('tool descriptions cite real routes', () => {
    test('every path a tool description names answers something other than 404 through the gateway', async () => {
      const listed = await mcpPost(ERAS[0].message);
      const cited = listed.body.result.tools.flatMap(({ description }: { description: string }) =>
        [...description.matchAll(/\b(GET|POST) (\/[\w{}/.-]*\w[}]?)/g)].map(([, method, path]) => ({ method, path })),
      );
      expect(cited.length).toBeGreaterThanOrEqual(10);
      for (const { method, path } of cited) {
        // No bearer: a route that exists refuses with 401; only a missing one is 404.
        const response = await api(rde, method, path.replace(/{\w+}/g, 'x'), {
          key: null,
          body: method === 'POST' ? {} : undefined,
        });
        expect(`${method} ${path} ${response.status}`).not.toMatch(/ 404$/);
      }
    });
  });

  describe('transport and OAuth details', () => {
    const withToken = (token: string) =>
      api(rde, 'POST', MCP, { key: token, body: initialize, headers: { accept: ACCEPT } });

    test('a JSON-RPC batch at 2025-11-25 is 400 Invalid Request: batching was removed in 2025-06-18', async () => {
      const response = await mcpPost([ERAS[0].message, { ...ERAS[0].message, id: 3 }]);
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ jsonrpc: '2.0', error: { code: -32600 }, id: null });
    });

    test.each(ERAS)(
      'an Accept of text/event-stream alone is 406 ($era): this server answers only JSON',
      async ({ message, headers }) => {
        const response = await mcpPost(message, { ...headers, accept: 'text/event-stream' });
        expect(response.status).toBe(406);
      },
    );

    test('a body that is not JSON (text/plain) is 415, not 422', async () => {
      const response = await fetch(`${rde.baseUrl}${MCP}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${rde.ownerKey}`, 'content-type': 'text/plain', accept: ACCEPT },
        body: JSON.stringify(initialize),
      });
      expect(response.status).toBe(415);
    });

    test('a form-encoded client registration is 415 with an RFC 7591 error body', async () => {
      const response = await postForm(rde, `${OAUTH}/register`, { redirect_uris: REDIRECT_URI });
      expect(response.status).toBe(415);
      expect(response.body).toMatchObject({ error: 'invalid_client_metadata', error_description: expect.any(String) });
    });

    test('a revocation without client_id is invalid_client and revokes nothing (RFC 7009 §2.1)', async () => {
      const { cookie } = await signedInOwner(rde);
      const { clientId, token } = await approvedTokens(rde, cookie);
      const anonymous = await postForm(rde, `${OAUTH}/revoke`, { token: token.body.access_token });
      expect([anonymous.status, anonymous.body.error]).toEqual([400, 'invalid_client']);
      expect((await withToken(token.body.access_token)).status).toBe(200);
      const own = await postForm(rde, `${OAUTH}/revoke`, { token: token.body.access_token, client_id: clientId });
      expect(own.status).toBe(200);
      expect((await withToken(token.body.access_token)).status).toBe(401);
    });

    test('after a refresh the previous access token keeps working for the grace: calls in flight succeed', async () => {
      const { cookie } = await signedInOwner(rde);
      const { clientId, token } = await approvedTokens(rde, cookie);
      const refreshed = await postForm(rde, `${OAUTH}/token`, {
        grant_type: 'refresh_token',
        refresh_token: token.body.refresh_token,
        client_id: clientId,
      });
      expect(refreshed.status).toBe(200);
      expect((await withToken(token.body.access_token)).status).toBe(200);
      expect((await withToken(refreshed.body.access_token)).status).toBe(200);
    });
  });
});
