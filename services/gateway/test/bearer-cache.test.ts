import { errors, ManualClock, type Caller } from '@rde/platform';
import { gatewayConfig } from '../src/config';
import { BearerCache } from '../src/plugins/bearer-cache';
import { gatewayOver, OWNER } from './support';

/** The gateway's default trust period (what a revocation may take to hold). */
const TTL_MS = gatewayConfig({}).RDE_BEARER_CACHE_MS;

/**
 * A stand-in for auth's `ResolveBearer` RPC that counts its calls and answers only when the test
 * says so, so concurrent misses are really concurrent.
 */
function standInAuth() {
  const pending: { resolve: () => void; reject: (error: Error) => void }[] = [];
  const calls: { token: string; workspaceId: string }[] = [];
  const resolveBearer = (request: { token: string; workspaceId: string }) => {
    calls.push(request);
    return new Promise<{ caller: Caller }>((resolve, reject) =>
      pending.push({ resolve: () => resolve({ caller: OWNER }), reject }),
    );
  };
  /** Answers every call made so far. */
  const answerAll = (outcome: 'valid' | 'revoked') => {
    for (const call of pending.splice(0)) {
      if (outcome === 'valid') call.resolve();
      else call.reject(errors.unauthenticated('API key revoked'));
    }
  };
  return { calls, resolveBearer, answerAll };
}

function cacheOver(auth: ReturnType<typeof standInAuth>, clock = new ManualClock()) {
  const resolve = async (token: string, workspaceId: string) =>
    (await auth.resolveBearer({ token, workspaceId })).caller;
  return new BearerCache(resolve, clock, TTL_MS);
}

describe('bearer cache', () => {
  test('concurrent misses for the same bearer make one auth call and all get its caller', async () => {
    const auth = standInAuth();
    const cache = cacheOver(auth);
    const callers = Promise.all(Array.from({ length: 10 }, () => cache.resolve('rde_live_a', '')));
    auth.answerAll('valid');
    expect(await callers).toEqual(Array(10).fill(OWNER));
    expect(auth.calls).toHaveLength(1);
  });

  test('different bearers and workspace switches are resolved separately', async () => {
    const auth = standInAuth();
    const cache = cacheOver(auth);
    const callers = Promise.all([
      cache.resolve('rde_live_a', ''),
      cache.resolve('rde_live_b', ''),
      cache.resolve('rde_live_a', 'ws_2'),
      cache.resolve('rde_live_a', ''),
    ]);
    auth.answerAll('valid');
    await callers;
    expect(auth.calls).toEqual([
      { token: 'rde_live_a', workspaceId: '' },
      { token: 'rde_live_b', workspaceId: '' },
      { token: 'rde_live_a', workspaceId: 'ws_2' },
    ]);
  });

  test('a refused bearer is refused to every waiting caller and asked about again next time', async () => {
    const auth = standInAuth();
    const cache = cacheOver(auth);
    const outcomes = Promise.allSettled(Array.from({ length: 3 }, () => cache.resolve('rde_live_revoked', '')));
    auth.answerAll('revoked');
    expect((await outcomes).map((outcome) => outcome.status)).toEqual(['rejected', 'rejected', 'rejected']);
    expect(auth.calls).toHaveLength(1);

    const retry = cache.resolve('rde_live_revoked', '');
    auth.answerAll('valid');
    expect(await retry).toEqual(OWNER);
    expect(auth.calls).toHaveLength(2);
  });

  test('a resolution still pending after the TTL is not joined; a new auth call is made', async () => {
    const auth = standInAuth();
    const clock = new ManualClock();
    const cache = cacheOver(auth, clock);
    const slow = cache.resolve('rde_live_a', '');
    clock.advance(TTL_MS);
    const later = cache.resolve('rde_live_a', '');
    auth.answerAll('valid');
    await Promise.all([slow, later]);
    expect(auth.calls).toHaveLength(2);
  });
});

describe('bearer cache in the gateway', () => {
  async function gateway(auth: ReturnType<typeof standInAuth>, clock = new ManualClock()) {
    const app = await gatewayOver({ auth: { resolveBearer: auth.resolveBearer } }, clock);
    app.get('/whoami', async (request) => ({ user_id: request.caller.userId }));
    await app.ready();
    return app;
  }

  /** One request, answered by auth with `outcome` if it asks; the status the client gets. */
  async function whoami(
    app: Awaited<ReturnType<typeof gateway>>,
    auth: ReturnType<typeof standInAuth>,
    outcome: 'valid' | 'revoked',
  ) {
    const callsBefore = auth.calls.length;
    let answered = false;
    const response = app
      .inject({ method: 'GET', url: '/whoami', headers: { authorization: 'Bearer rde_live_a' } })
      .finally(() => (answered = true));
    while (!answered && auth.calls.length === callsBefore) await new Promise((turn) => setImmediate(turn));
    const asked = auth.calls.length > callsBefore;
    if (asked) auth.answerAll(outcome);
    return { status: (await response).statusCode, asked };
  }

  test('a resolved bearer is trusted for the TTL, then asked about again, so a revocation holds by then', async () => {
    const auth = standInAuth();
    const clock = new ManualClock();
    const app = await gateway(auth, clock);
    expect(await whoami(app, auth, 'valid')).toEqual({ status: 200, asked: true });
    clock.advance(TTL_MS - 1);
    expect(await whoami(app, auth, 'revoked')).toEqual({ status: 200, asked: false });
    clock.advance(1);
    expect(await whoami(app, auth, 'revoked')).toEqual({ status: 401, asked: true });
  });

  test('logout forgets a bearer at once', async () => {
    const auth = standInAuth();
    const app = await gateway(auth);
    expect(await whoami(app, auth, 'valid')).toEqual({ status: 200, asked: true });
    app.forgetBearer('rde_live_a');
    expect(await whoami(app, auth, 'revoked')).toEqual({ status: 401, asked: true });
  });
});
