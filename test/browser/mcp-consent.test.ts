import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { api } from '../e2e/api';
import { authorizationRequest, OAUTH, pkce, postForm } from '../e2e/mcp-oauth';
import { freshEmail } from '../e2e/sign-in';
import { dashboardSuite } from './browser';
import { checkPage, shown, signInByCode } from './pages';

jest.setTimeout(120_000);

/**
 * The MCP consent round trip in a real browser (issues 28 and 30, decision 0078): an MCP client on
 * a loopback port (as a desktop agent listens) sends the person to RDE's authorization endpoint; the
 * person signs in, approves or denies on the dashboard's consent page, and the browser lands back on
 * the client, which exchanges the code with its PKCE verifier.
 */
describe('Dashboard: granting an MCP client in a real browser (all-in-one)', () => {
  const suite = dashboardSuite();
  let client: Server;
  let redirectUri: string;
  /** What the client's callback received and the token endpoint answered it, by state. */
  const callbacks = new Map<string, { query: URLSearchParams; tokenStatus?: number; accessToken?: string }>();
  const verifiers = new Map<string, string>();

  beforeAll(async () => {
    client = createServer((request, response) => {
      void (async () => {
        const query = new URL(request.url ?? '/', redirectUri).searchParams;
        const state = query.get('state') ?? '';
        const received: { query: URLSearchParams; tokenStatus?: number; accessToken?: string } = { query };
        if (query.get('code')) {
          const token = await postForm(suite.rde, `${OAUTH}/token`, {
            grant_type: 'authorization_code',
            code: query.get('code')!,
            redirect_uri: redirectUri,
            client_id: clientId,
            code_verifier: verifiers.get(state)!,
          });
          Object.assign(received, { tokenStatus: token.status, accessToken: token.body.access_token });
        }
        callbacks.set(state, received);
        const outcome = received.accessToken ? 'Connected to RDE.' : `RDE answered ${query.get('error')}.`;
        response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        response.end(`<!doctype html><html lang="en"><title>Agent</title><main><p role="status">${outcome}</p></main>`);
      })();
    });
    await new Promise<void>((resolve) => client.listen(0, '127.0.0.1', resolve));
    redirectUri = `http://127.0.0.1:${(client.address() as AddressInfo).port}/callback`;
  });

  afterAll(async () => {
    await new Promise((resolve) => client?.close(resolve));
  });

  let clientId = '';
  /** Registers the agent and opens its authorization URL, as the agent would hand it to the browser. */
  async function startAuthorization(state: string): Promise<void> {
    const registered = await api(suite.rde, 'POST', `${OAUTH}/register`, {
      key: null,
      body: { client_name: 'Desk Agent', redirect_uris: [redirectUri] },
    });
    clientId = registered.body.client_id;
    const { verifier, challenge } = pkce();
    verifiers.set(state, verifier);
    const query = authorizationRequest(clientId, challenge, { redirect_uri: redirectUri, state });
    await suite.page.goto(`${suite.rde.baseUrl}${OAUTH}/authorize?${new URLSearchParams(query)}`);
  }

  const consentHeading = () => suite.page.getByRole('heading', { level: 1, name: 'Authorize Desk Agent' });

  test('signed out: sign in, come back to the consent, approve; the agent exchanges the code and calls MCP', async () => {
    await startAuthorization('approve-1');
    await shown(suite.page.getByRole('heading', { level: 1, name: 'Sign in to RDE' }));
    const email = freshEmail('browser-mcp');
    await signInByCode(suite.page, email);

    await shown(consentHeading());
    expect(new URL(suite.page.url()).pathname).toBe('/app/oauth/consent');
    const page = suite.page.getByRole('main');
    await shown(page.getByText(email, { exact: true }));
    await shown(page.getByText(new URL(redirectUri).host, { exact: true }));
    await shown(page.getByText('mcp', { exact: true }));
    expect(await page.getByLabel('Workspace').locator('option').count()).toBe(1);
    await checkPage(suite.page, 'mcp-consent');

    await page.getByRole('button', { name: 'Approve' }).click();
    expect(await shown(suite.page.getByRole('status'))).toBe('Connected to RDE.');
    expect(suite.page.url().startsWith(`${redirectUri}?`)).toBe(true);
    const received = callbacks.get('approve-1')!;
    expect(received.query.get('iss')).toBe(suite.rde.baseUrl);
    expect(received.tokenStatus).toBe(200);
    const listed = await api(suite.rde, 'POST', '/api/v2/mcp', {
      key: received.accessToken!,
      body: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      headers: { accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' },
    });
    expect(listed.status).toBe(200);
  });

  test('signed in, Deny sends the agent access_denied with its state, and no code', async () => {
    await suite.page.goto(`${suite.rde.baseUrl}/app/auth/signin`);
    await signInByCode(suite.page, freshEmail('browser-mcp-deny'));
    await shown(suite.page.getByRole('heading', { level: 1, name: 'Workspace' }));
    await startAuthorization('deny-1');
    await shown(consentHeading());
    await suite.page.getByRole('button', { name: 'Deny' }).click();
    expect(await shown(suite.page.getByRole('status'))).toBe('RDE answered access_denied.');
    const received = callbacks.get('deny-1')!;
    expect(received.query.get('error')).toBe('access_denied');
    expect(received.query.get('code')).toBeNull();
  });

  test('a request with an unknown client shows the refusal on the consent page, and no form', async () => {
    await suite.page.goto(`${suite.rde.baseUrl}/app/auth/signin`);
    await signInByCode(suite.page, freshEmail('browser-mcp-unknown'));
    await shown(suite.page.getByRole('heading', { level: 1, name: 'Workspace' }));
    const query = authorizationRequest('mcp_client_unknown', pkce().challenge);
    await suite.page.goto(`${suite.rde.baseUrl}/app/oauth/consent?${new URLSearchParams(query)}`);
    expect(await shown(suite.page.getByRole('alert'))).toBe('Unknown or missing client_id');
    expect(await suite.page.getByRole('button', { name: 'Approve' }).count()).toBe(0);
  });
});
