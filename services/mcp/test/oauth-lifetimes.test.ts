import { InMemoryDocumentStore, ManualClock, RdeError, type Caller } from '@rde/platform';
import { createHash, randomBytes } from 'node:crypto';
import { Authorization } from '../src/app/oauth/authorization';
import { OAuthClients } from '../src/app/oauth/clients';
import { Membership } from '../src/app/oauth/membership';
import { Tokens } from '../src/app/oauth/tokens';
import type { AuthClient } from '../src/clients';
import { LIFETIMES } from '../src/domain/oauth';
import { openOAuthStore, type OAuthStore } from '../src/store';

/**
 * The time rules of codes and tokens (decision 0029) on a settable clock: the black-box suites
 * (test/spec/mcp-oauth*) cannot wait an hour. Auth is a stub here: this is a unit test of the
 * authorization server's own rules, not of the session it resolves.
 */
const RESOURCE = 'https://rde.example/api/v2/mcp';
const REDIRECT = 'http://127.0.0.1:9/callback';
const GRACE_MS = 30_000;
const caller: Caller = { workspaceId: 'ws_1', userId: 'usr_1', role: 'owner', keyId: '', sessionId: '', requestId: '' };
const signedIn = {
  resolveBearer: async () => ({ caller }),
  getMembership: async () => ({ role: 'owner' }),
} as unknown as AuthClient;

describe('OAuth lifetimes', () => {
  let store: OAuthStore;
  let clock: ManualClock;
  let tokens: Tokens;
  let authorization: Authorization;

  beforeEach(async () => {
    store = await openOAuthStore(new InMemoryDocumentStore());
    clock = new ManualClock();
    const clients = new OAuthClients(store, clock, { timeoutMs: 1_000, maxBytes: 5_120, allowLoopbackHttp: false });
    tokens = new Tokens(store, clients, clock, new Membership(signedIn, clock, 0), GRACE_MS);
    authorization = new Authorization(store, clients, signedIn, clock);
    await store.clients.insert({
      _id: 'client_1',
      client_name: 'test',
      client_uri: '',
      redirect_uris: [REDIRECT],
      grant_types: ['authorization_code', 'refresh_token'],
      scope: 'mcp',
      created_at_ms: clock.now(),
    });
  });

  async function code(verifier: string): Promise<string> {
    const redirect = await authorization.decide({
      parameters: {
        responseType: 'code',
        clientId: 'client_1',
        redirectUri: REDIRECT,
        codeChallenge: createHash('sha256').update(verifier).digest('base64url'),
        codeChallengeMethod: 'S256',
        scope: '',
        state: '',
        resource: '',
      },
      context: { issuer: 'https://rde.example', resource: RESOURCE, sessionToken: 'session' },
      workspaceId: '',
      approved: true,
    });
    return new URL(redirect).searchParams.get('code')!;
  }

  const redeem = (codeValue: string, verifier: string) =>
    tokens.exchange({
      grantType: 'authorization_code',
      code: codeValue,
      redirectUri: REDIRECT,
      clientId: 'client_1',
      codeVerifier: verifier,
      refreshToken: '',
      resource: '',
      scope: '',
    });
  const refresh = (refreshToken: string, resource: string) =>
    tokens.exchange({
      grantType: 'refresh_token',
      code: '',
      redirectUri: '',
      clientId: 'client_1',
      codeVerifier: '',
      refreshToken,
      resource,
      scope: '',
    });

  const refusal = async (promise: Promise<unknown>) => {
    const error = await promise.then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(RdeError);
    return { status: (error as RdeError).httpStatus, body: (error as RdeError).body };
  };

  test('a code expires after its lifetime', async () => {
    const verifier = randomBytes(32).toString('base64url');
    const issued = await code(verifier);
    clock.advance(LIFETIMES.codeMs);
    expect(await refusal(redeem(issued, verifier))).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
  });

  test('an access token stops working after its lifetime; the refresh token still renews it', async () => {
    const verifier = randomBytes(32).toString('base64url');
    const issued = (await redeem(await code(verifier), verifier)) as { access_token: string; refresh_token: string };
    expect(await tokens.resolve(issued.access_token, RESOURCE)).toMatchObject({ workspaceId: 'ws_1', userId: 'usr_1' });
    clock.advance(LIFETIMES.accessMs);
    expect(await refusal(tokens.resolve(issued.access_token, RESOURCE))).toMatchObject({ status: 401 });
    const renewed = (await refresh(issued.refresh_token, RESOURCE)) as { access_token: string };
    expect(await tokens.resolve(renewed.access_token, RESOURCE)).toMatchObject({ workspaceId: 'ws_1' });
  });

  test('an access token acts only for the resource it was minted for (RFC 8707 audience)', async () => {
    const verifier = randomBytes(32).toString('base64url');
    const issued = (await redeem(await code(verifier), verifier)) as { access_token: string };
    const elsewhere = tokens.resolve(issued.access_token, 'https://other.example/api/v2/mcp');
    expect(await refusal(elsewhere)).toMatchObject({ status: 401 });
  });

  test('a refreshed access token keeps working for the grace, then stops; revoking through it ends the grant', async () => {
    const verifier = randomBytes(32).toString('base64url');
    const issued = (await redeem(await code(verifier), verifier)) as { access_token: string; refresh_token: string };
    const renewed = (await refresh(issued.refresh_token, RESOURCE)) as { access_token: string };
    clock.advance(GRACE_MS - 1);
    expect(await tokens.resolve(issued.access_token, RESOURCE)).toMatchObject({ workspaceId: 'ws_1' });
    clock.advance(1);
    expect(await refusal(tokens.resolve(issued.access_token, RESOURCE))).toMatchObject({ status: 401 });
    expect(await tokens.resolve(renewed.access_token, RESOURCE)).toMatchObject({ workspaceId: 'ws_1' });
  });

  test('a refresh token expires after its lifetime', async () => {
    const verifier = randomBytes(32).toString('base64url');
    const issued = (await redeem(await code(verifier), verifier)) as { refresh_token: string };
    clock.advance(LIFETIMES.refreshMs);
    expect(await refusal(refresh(issued.refresh_token, ''))).toMatchObject({
      status: 400,
      body: { error: 'invalid_grant' },
    });
  });

  test('codes and tokens are stored only as hashes', async () => {
    const verifier = randomBytes(32).toString('base64url');
    const issuedCode = await code(verifier);
    const issued = (await redeem(issuedCode, verifier)) as { access_token: string; refresh_token: string };
    const grant = await store.grants.byHash(
      'access_hash',
      createHash('sha256').update(issued.access_token).digest('hex'),
    );
    const stored = JSON.stringify(grant);
    for (const secret of [issuedCode, issued.access_token, issued.refresh_token]) expect(stored).not.toContain(secret);
  });
});
