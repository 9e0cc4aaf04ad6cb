import { MongoConnection } from '@rde/platform';
import { api, type ApiResponse } from '../e2e/api';
import { mode, startRde, type RunningRde } from '../e2e/harness';
import { consentAs, reserveIssuer, startOidcProvider, type RunningOidcProvider } from '../e2e/oidc';
import { freshEmail, signIn, withCookie } from '../e2e/sign-in';

jest.setTimeout(120_000);

const DASHBOARD = 'https://dashboard.example/';
const MANAGED = { client_id: 'crm-managed-app', client_secret: 'managed-secret-for-tests-only' };
const OWN = { client_id: 'ats-own-app', client_secret: 'workspace-own-secret-for-tests-only' };
const path = (provider: string, step: string) => `/api/v2/integrations/${provider}/oauth/${step}`;

describe(`Integrations: CRM/ATS OAuth connect (${mode})`, () => {
  let rde: RunningRde;
  let vendor: RunningOidcProvider;

  beforeAll(async () => {
    const { port, issuer } = await reserveIssuer();
    const endpoints = {
      issuer,
      authorization_endpoint: `${issuer}/auth`,
      token_endpoint: `${issuer}/token`,
      scope: 'openid',
    };
    rde = await startRde({
      RDE_DASHBOARD_URL: DASHBOARD,
      RDE_INTEGRATIONS: JSON.stringify({ acme_crm: { ...endpoints, ...MANAGED }, acme_ats: endpoints }),
    });
    vendor = await startOidcProvider(port, [
      { ...MANAGED, redirect_uris: [`${rde.baseUrl}${path('acme_crm', 'callback')}`] },
      { ...OWN, redirect_uris: [`${rde.baseUrl}${path('acme_ats', 'callback')}`] },
    ]);
  });

  afterAll(async () => {
    await rde?.stop();
    await vendor?.stop();
  });

  /** A new workspace's owner, signed in. */
  async function member() {
    const { session } = await signIn(rde, freshEmail('crm'));
    return withCookie(session);
  }
  const stateCookie = (response: ApiResponse) =>
    response.headers.getSetCookie().find((c) => c.startsWith('rde_oauth_state='));
  /** Starts a connect, consents at the vendor, and returns the callback URL and the state cookie. */
  async function consent(bearer: object, provider: string) {
    const started = await api(rde, 'GET', path(provider, 'start'), bearer);
    expect(started.status).toBe(200);
    const cookie = stateCookie(started)!.split(';')[0];
    const back = await consentAs(
      started.body.url,
      'recruiter@example.com',
      `${rde.baseUrl}${path(provider, 'callback')}`,
    );
    return { back, cookie };
  }
  const callback = (url: string, cookie?: string) =>
    api(rde, 'GET', url.slice(rde.baseUrl.length), { key: null, headers: cookie ? { cookie } : {} });
  const failedFor = (provider: string) => `${DASHBOARD}integrations?error=connect&provider=${provider}`;

  test('start returns the consent URL and mirrors the state into an HttpOnly cookie scoped to the callback', async () => {
    const started = await api(rde, 'GET', path('acme_crm', 'start'), await member());
    expect(started.status).toBe(200);
    const url = new URL(started.body.url);
    expect(url.origin).toBe(vendor.issuer);
    expect(url.searchParams.get('client_id')).toBe(MANAGED.client_id);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    const cookie = stateCookie(started)!.toLowerCase();
    expect(cookie).toContain(`rde_oauth_state=${url.searchParams.get('state')!.toLowerCase()}`);
    expect(cookie).toContain(`path=${path('acme_crm', 'callback')}`);
    expect(cookie).toContain('httponly');
    expect(cookie).toContain('max-age=600');
  });

  test('consent with the managed app stores the tokens and returns to the integrations page', async () => {
    const { back, cookie } = await consent(await member(), 'acme_crm');
    const done = await callback(back, cookie);
    expect(done.status).toBe(302);
    expect(done.headers.get('location')).toBe(`${DASHBOARD}integrations?connected=acme_crm`);
  });

  test('a provider without OAuth config is 404 on start and on saving credentials', async () => {
    const bearer = await member();
    expect((await api(rde, 'GET', path('no_such_crm', 'start'), bearer)).status).toBe(404);
    const saved = await api(rde, 'PUT', path('no_such_crm', 'credentials'), { ...bearer, body: OWN });
    expect(saved.status).toBe(404);
  });

  test('with neither a managed app nor workspace credentials, start is 400; saved credentials connect', async () => {
    const bearer = await member();
    const noApp = await api(rde, 'GET', path('acme_ats', 'start'), bearer);
    expect(noApp.status).toBe(400);
    expect(stateCookie(noApp)).toBeUndefined();
    const saved = await api(rde, 'PUT', path('acme_ats', 'credentials'), { ...bearer, body: OWN });
    expect(saved.status).toBe(200);
    expect(saved.body).toEqual({ ok: true, provider: 'acme_ats' });
    const { back, cookie } = await consent(bearer, 'acme_ats');
    expect(new URL(back).searchParams.get('code')).toBeTruthy();
    expect((await callback(back, cookie)).headers.get('location')).toBe(`${DASHBOARD}integrations?connected=acme_ats`);
  });

  test('the callback without the state cookie redirects with an error flag and spends nothing', async () => {
    const { back, cookie } = await consent(await member(), 'acme_crm');
    const withoutCookie = await callback(back);
    expect(withoutCookie.status).toBe(302);
    expect(withoutCookie.headers.get('location')).toBe(failedFor('acme_crm'));
    // The state row was not spent by the refused call: the real browser's callback still connects.
    expect((await callback(back, cookie)).headers.get('location')).toBe(`${DASHBOARD}integrations?connected=acme_crm`);
  });

  test('a replayed state, a mismatched cookie or a vendor error redirects with an error flag', async () => {
    const bearer = await member();
    const { back, cookie } = await consent(bearer, 'acme_crm');
    expect((await callback(back, cookie)).headers.get('location')).toBe(`${DASHBOARD}integrations?connected=acme_crm`);
    expect((await callback(back, cookie)).headers.get('location')).toBe(failedFor('acme_crm'));
    const other = await consent(bearer, 'acme_crm');
    expect((await callback(other.back, cookie)).headers.get('location')).toBe(failedFor('acme_crm'));
    const denied = await callback(`${rde.baseUrl}${path('acme_crm', 'callback')}?error=access_denied&state=x`, cookie);
    expect(denied.headers.get('location')).toBe(failedFor('acme_crm'));
  });

  const listed = async (bearer: object) => (await api(rde, 'GET', '/api/v2/integrations', bearer)).body.integrations;
  const disconnect = (bearer: object, provider: string) =>
    api(rde, 'DELETE', `/api/v2/integrations/${provider}/connection`, bearer);

  test('the list names every provider with OAuth config, the app a connect uses, and the connection (decision 0084)', async () => {
    const bearer = await member();
    expect(await listed(bearer)).toEqual([
      { provider: 'acme_ats', app: 'none', connected: false, connected_at: null },
      { provider: 'acme_crm', app: 'managed', connected: false, connected_at: null },
    ]);
    await api(rde, 'PUT', path('acme_ats', 'credentials'), { ...bearer, body: OWN });
    const { back, cookie } = await consent(bearer, 'acme_ats');
    await callback(back, cookie);
    const [ats, crm] = await listed(bearer);
    expect(ats).toMatchObject({ provider: 'acme_ats', app: 'workspace', connected: true });
    expect(Date.parse(ats.connected_at)).not.toBeNaN();
    expect(crm).toMatchObject({ app: 'managed', connected: false });
    // Another workspace has its own standing.
    expect((await listed(await member())).map((i: { app: string }) => i.app)).toEqual(['none', 'managed']);
  });

  test("disconnect drops the tokens and keeps the workspace's own app; again, there was nothing to drop", async () => {
    const bearer = await member();
    await api(rde, 'PUT', path('acme_ats', 'credentials'), { ...bearer, body: OWN });
    const { back, cookie } = await consent(bearer, 'acme_ats');
    await callback(back, cookie);
    const dropped = await disconnect(bearer, 'acme_ats');
    expect(dropped.status).toBe(200);
    expect(dropped.body).toEqual({ ok: true, provider: 'acme_ats', was_connected: true });
    expect((await listed(bearer))[0]).toEqual({
      provider: 'acme_ats',
      app: 'workspace',
      connected: false,
      connected_at: null,
    });
    expect((await disconnect(bearer, 'acme_ats')).body).toEqual({
      ok: true,
      provider: 'acme_ats',
      was_connected: false,
    });
    // The saved app still connects without saving it again.
    const again = await consent(bearer, 'acme_ats');
    expect((await callback(again.back, again.cookie)).headers.get('location')).toBe(
      `${DASHBOARD}integrations?connected=acme_ats`,
    );
  });

  test("disconnect leaves another workspace's connection alone", async () => {
    const [mine, theirs] = [await member(), await member()];
    const { back, cookie } = await consent(theirs, 'acme_crm');
    await callback(back, cookie);
    expect((await disconnect(mine, 'acme_crm')).body.was_connected).toBe(false);
    expect((await listed(theirs))[1]).toMatchObject({ provider: 'acme_crm', connected: true });
  });

  test('disconnecting a provider without OAuth config is 404, a malformed name 422; nothing changes', async () => {
    const bearer = await member();
    const unknown = await disconnect(bearer, 'no_such_crm');
    expect(unknown.status).toBe(404);
    expect(unknown.body.detail).toMatch(/no_such_crm/);
    expect((await disconnect(bearer, 'Not-A-Name')).status).toBe(422);
    expect((await listed(bearer)).map((i: { provider: string }) => i.provider)).toEqual(['acme_ats', 'acme_crm']);
  });

  test('integration routes other than the callback need a bearer', async () => {
    expect((await api(rde, 'GET', path('acme_crm', 'start'), { key: null })).status).toBe(401);
    expect((await api(rde, 'PUT', path('acme_crm', 'credentials'), { key: null, body: OWN })).status).toBe(401);
    expect((await api(rde, 'GET', '/api/v2/integrations', { key: null })).status).toBe(401);
    expect((await disconnect({ key: null }, 'acme_crm')).status).toBe(401);
  });

  (mode === 'distributed' ? test : test.skip)(
    'tokens and client secrets are stored encrypted; saving credentials again drops the connection',
    async () => {
      const bearer = await member();
      const workspaceId = (await api(rde, 'GET', '/api/v2/me', bearer)).body.workspace.id as string;
      await api(rde, 'PUT', path('acme_ats', 'credentials'), { ...bearer, body: OWN });
      const { back, cookie } = await consent(bearer, 'acme_ats');
      await callback(back, cookie);
      const connection = await MongoConnection.connect(process.env.RDE_MONGO_URL!);
      try {
        const integrations = connection.store(`${rde.namespace}rde_auth`).collection('integrations');
        const stored = await integrations.find({});
        const dump = JSON.stringify(stored);
        expect(dump).not.toContain(OWN.client_secret);
        expect(dump).not.toContain('access_token');
        const connected = await integrations.findOne({ _id: `${workspaceId}/acme_ats` });
        expect(connected?.tokens_sealed).toMatch(/^v1\./);
        await api(rde, 'PUT', path('acme_ats', 'credentials'), { ...bearer, body: OWN });
        expect((await integrations.findOne({ _id: `${workspaceId}/acme_ats` }))?.tokens_sealed).toBeNull();
      } finally {
        await connection.close();
      }
    },
  );
});
