import Fastify from 'fastify';
import { errors, ManualClock, RdeError, type Caller } from '@rde/platform';
import type { Clients } from '../src/clients';
import { registerAuthentication } from '../src/plugins/authentication';

/**
 * The gateway's bearer cache over a stand-in auth client that counts its `ResolveBearer` calls and
 * answers only when the test says so, so concurrent misses are really concurrent.
 */
const TTL_MS = 2_000;
const caller: Caller = {
  workspaceId: 'ws_1',
  userId: 'usr_1',
  role: 'owner',
  keyId: 'key_1',
  sessionId: '',
  requestId: '',
};

function standInAuth() {
  const pending: { resolve: () => void; reject: (error: Error) => void }[] = [];
  const calls: { token: string; workspaceId: string }[] = [];
  const resolveBearer = (request: { token: string; workspaceId: string }) => {
    calls.push(request);
    return new Promise<{ caller: Caller }>((resolve, reject) =>
      pending.push({ resolve: () => resolve({ caller }), reject }),
    );
  };
  /** Answers every auth call made so far, once the gateway has made them all. */
  const answerAll = async (outcome: 'valid' | 'revoked') => {
    await new Promise((settle) => setImmediate(settle));
    for (const call of pending.splice(0)) {
      if (outcome === 'valid') call.resolve();
      else call.reject(errors.unauthenticated('API key revoked'));
    }
  };
  return { calls, resolveBearer, answerAll };
}

async function gateway(auth: ReturnType<typeof standInAuth>, clock = new ManualClock()) {
  const app = Fastify();
  const clients = { auth: { resolveBearer: auth.resolveBearer } } as unknown as Clients;
  registerAuthentication(app, { clients, clock, cacheMs: TTL_MS });
  app.setErrorHandler((error, _request, reply) =>
    reply.code(error instanceof RdeError ? error.httpStatus : 500).send(),
  );
  app.get('/whoami', async (request) => ({ user_id: request.caller.userId }));
  await app.ready();
  return app;
}

function whoami(app: Awaited<ReturnType<typeof gateway>>, token: string, workspaceId?: string) {
  const headers = { authorization: `Bearer ${token}`, ...(workspaceId && { 'x-workspace-id': workspaceId }) };
  return app.inject({ method: 'GET', url: '/whoami', headers });
}

describe('bearer cache', () => {
  test('concurrent requests with the same uncached bearer make one auth call', async () => {
    const auth = standInAuth();
    const app = await gateway(auth);
    const responses = Array.from({ length: 10 }, () => whoami(app, 'rde_live_a'));
    await auth.answerAll('valid');
    const statuses = (await Promise.all(responses)).map((response) => response.statusCode);
    expect(statuses).toEqual(Array(10).fill(200));
    expect(auth.calls).toHaveLength(1);
  });

  test('different bearers and workspace switches are resolved separately', async () => {
    const auth = standInAuth();
    const app = await gateway(auth);
    const responses = [whoami(app, 'rde_live_a'), whoami(app, 'rde_live_b'), whoami(app, 'rde_live_a', 'ws_2')];
    await auth.answerAll('valid');
    await Promise.all(responses);
    expect(auth.calls).toEqual([
      { token: 'rde_live_a', workspaceId: '' },
      { token: 'rde_live_b', workspaceId: '' },
      { token: 'rde_live_a', workspaceId: 'ws_2' },
    ]);
  });

  test('a refused bearer is refused to every waiting request and asked about again next time', async () => {
    const auth = standInAuth();
    const app = await gateway(auth);
    const responses = Array.from({ length: 3 }, () => whoami(app, 'rde_live_revoked'));
    await auth.answerAll('revoked');
    const statuses = (await Promise.all(responses)).map((response) => response.statusCode);
    expect(statuses).toEqual([401, 401, 401]);
    expect(auth.calls).toHaveLength(1);

    const retry = whoami(app, 'rde_live_revoked');
    await auth.answerAll('valid');
    expect((await retry).statusCode).toBe(200);
    expect(auth.calls).toHaveLength(2);
  });

  test('a resolved bearer is trusted for the TTL, then asked about again (a revocation holds by then)', async () => {
    const auth = standInAuth();
    const clock = new ManualClock();
    const app = await gateway(auth, clock);
    const first = whoami(app, 'rde_live_a');
    await auth.answerAll('valid');
    expect((await first).statusCode).toBe(200);

    clock.advance(TTL_MS - 1);
    expect((await whoami(app, 'rde_live_a')).statusCode).toBe(200);
    expect(auth.calls).toHaveLength(1);

    clock.advance(1);
    const afterTtl = whoami(app, 'rde_live_a');
    await auth.answerAll('revoked');
    expect((await afterTtl).statusCode).toBe(401);
    expect(auth.calls).toHaveLength(2);
  });

  test('a resolution still pending after the TTL is not joined; a new auth call is made', async () => {
    const auth = standInAuth();
    const clock = new ManualClock();
    const app = await gateway(auth, clock);
    const slow = whoami(app, 'rde_live_a');
    await new Promise((settle) => setImmediate(settle));
    clock.advance(TTL_MS);
    const later = whoami(app, 'rde_live_a');
    await auth.answerAll('valid');
    await Promise.all([slow, later]);
    expect(auth.calls).toHaveLength(2);
  });

  test('logout forgets a bearer at once', async () => {
    const auth = standInAuth();
    const app = await gateway(auth);
    const first = whoami(app, 'rde_live_a');
    await auth.answerAll('valid');
    await first;
    app.forgetBearer('rde_live_a');
    const afterLogout = whoami(app, 'rde_live_a');
    await auth.answerAll('revoked');
    expect((await afterLogout).statusCode).toBe(401);
    expect(auth.calls).toHaveLength(2);
  });
});
