import { api } from '../e2e/api';
import { mode, startRde, type RunningRde } from '../e2e/harness';
import { consentAs, reserveIssuer, startOidcProvider, type RunningOidcProvider } from '../e2e/oidc';
import { freshEmail, sessionCookieOf, withCookie } from '../e2e/sign-in';

jest.setTimeout(120_000);

const CALLBACK = '/api/v2/auth/oauth/google/callback';
const CLIENT = { client_id: 'rde-google', client_secret: 'a-client-secret-for-tests-only' };

describe(`Sign-in: external identity provider (${mode})`, () => {
  let rde: RunningRde;
  let provider: RunningOidcProvider;

  beforeAll(async () => {
    const { port, issuer } = await reserveIssuer();
    rde = await startRde({
      RDE_GOOGLE_ISSUER: issuer,
      RDE_GOOGLE_CLIENT_ID: CLIENT.client_id,
      RDE_GOOGLE_CLIENT_SECRET: CLIENT.client_secret,
    });
    provider = await startOidcProvider(port, [{ ...CLIENT, redirect_uris: [`${rde.baseUrl}${CALLBACK}`] }]);
  });

  afterAll(async () => {
    await rde?.stop();
    await provider?.stop();
  });

  /** Starts at RDE, signs in at the provider, and returns the callback URL the browser is sent back to. */
  async function throughProvider(email: string, query = '') {
    const started = await api(rde, 'GET', `/api/v2/auth/oauth/google/start${query}`, { key: null });
    expect(started.status).toBe(302);
    return consentAs(started.headers.get('location')!, email, `${rde.baseUrl}${CALLBACK}`);
  }
  const callback = (url: string) => api(rde, 'GET', url.slice(rde.baseUrl.length), { key: null });

  test('start redirects to the identity provider with PKCE (S256), a state and a nonce', async () => {
    const started = await api(rde, 'GET', '/api/v2/auth/oauth/google/start', { key: null });
    expect(started.status).toBe(302);
    const location = new URL(started.headers.get('location')!);
    expect(location.origin).toBe(provider.issuer);
    expect(location.searchParams.get('client_id')).toBe(CLIENT.client_id);
    expect(location.searchParams.get('redirect_uri')).toBe(`${rde.baseUrl}${CALLBACK}`);
    expect(location.searchParams.get('code_challenge_method')).toBe('S256');
    for (const param of ['code_challenge', 'state', 'nonce']) expect(location.searchParams.get(param)).toBeTruthy();
  });

  test('the callback signs the verified email in, sets the session cookie and redirects to next', async () => {
    const email = freshEmail('google');
    const back = await callback(await throughProvider(email, '?next=%2Fdatasets'));
    expect(back.status).toBe(302);
    expect(back.headers.get('location')).toBe('/datasets');
    const cookie = sessionCookieOf(back)!;
    expect(cookie.attributes).toEqual(expect.arrayContaining(['httponly', 'samesite=lax']));
    const me = await api(rde, 'GET', '/api/v2/me', withCookie(cookie.value));
    expect(me.body.user.email).toBe(email);
  });

  test('with a waiting claim the callback approves it and goes to the finalize page', async () => {
    const claimId = (await api(rde, 'POST', '/api/v2/auth/cli/start', { key: null })).body.claim_id as string;
    const email = freshEmail('google-cli');
    const back = await callback(await throughProvider(email, `?cli_token=${encodeURIComponent(claimId)}`));
    expect(back.headers.get('location')).toBe('/auth/cli/finalize');
    const polled = await api(rde, 'GET', `/api/v2/auth/cli/poll/${claimId}`, { key: null });
    expect(polled.body.status).toBe('approved');
    expect((await api(rde, 'GET', '/api/v2/me', { key: polled.body.token })).body.user.email).toBe(email);
  });

  test('a replayed callback (its state already spent) bounces to the sign-in page with error=connect', async () => {
    const url = await throughProvider(freshEmail('replayed'));
    expect((await callback(url)).headers.get('location')).toBe('/');
    const replay = await callback(url);
    expect(replay.status).toBe(302);
    expect(replay.headers.get('location')).toBe('/auth/signin?error=connect');
    expect(sessionCookieOf(replay)).toBeUndefined();
  });

  test('a forged state or a provider error bounces to the sign-in page with error=connect', async () => {
    const url = new URL(await throughProvider(freshEmail('forged')));
    url.searchParams.set('state', 'rde_st_ForgedStateThatWasNeverIssued00000');
    expect((await callback(url.href)).headers.get('location')).toBe('/auth/signin?error=connect');
    const denied = await callback(`${rde.baseUrl}${CALLBACK}?error=access_denied&state=whatever`);
    expect(denied.status).toBe(302);
    expect(denied.headers.get('location')).toBe('/auth/signin?error=connect');
  });
});
