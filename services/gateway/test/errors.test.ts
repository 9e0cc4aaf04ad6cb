import { errors, ManualClock } from '@rde/platform';
import { gatewayOver, OWNER } from './support';

/** The gateway's HTTP layer alone: a bearer that auth refuses, and one test route with a schema. */
async function gateway(clock = new ManualClock(), resolved: string[] = []) {
  const app = await gatewayOver(
    {
      auth: {
        resolveBearer: async ({ token }: { token: string }) => {
          resolved.push(token);
          if (token !== 'good') throw errors.unauthenticated('Invalid or missing API key');
          return { caller: OWNER };
        },
      },
    },
    clock,
  );
  app.post(
    '/echo/:id',
    {
      schema: {
        params: { type: 'object', properties: { id: { type: 'integer' } } },
        body: {
          type: 'object',
          additionalProperties: false,
          required: ['name', 'rows'],
          properties: { name: { type: 'string' }, rows: { type: 'array', items: { type: 'object' } } },
        },
      },
    },
    async (request) => ({ caller: request.caller.workspaceId }),
  );
  return app;
}

const good = { authorization: 'Bearer good' };

describe('gateway error formats', () => {
  test('a schema failure answers 422 with every problem in the detail list', async () => {
    const app = await gateway();
    const response = await app.inject({
      method: 'POST',
      url: '/echo/7',
      headers: good,
      payload: { rows: [1], extra: true },
    });
    expect(response.statusCode).toBe(422);
    expect(response.json().detail).toEqual(
      expect.arrayContaining([
        { loc: ['body', 'name'], msg: expect.any(String), type: 'missing' },
        { loc: ['body', 'extra'], msg: expect.any(String), type: 'extra_forbidden' },
        { loc: ['body', 'rows', 0], msg: expect.any(String), type: 'object_type' },
      ]),
    );
  });

  test('a bad path parameter names its location', async () => {
    const app = await gateway();
    const response = await app.inject({
      method: 'POST',
      url: '/echo/abc',
      headers: good,
      payload: { name: 'a', rows: [] },
    });
    expect(response.statusCode).toBe(422);
    expect(response.json().detail[0]).toMatchObject({ loc: ['params', 'id'], type: 'integer_type' });
  });

  test('a protected route without a bearer is 401; with one auth refuses, auth’s body passes through', async () => {
    const app = await gateway();
    const missing = await app.inject({ method: 'POST', url: '/echo/1', payload: { name: 'a', rows: [] } });
    expect(missing.statusCode).toBe(401);
    expect(missing.json()).toEqual(errors.notAuthenticated('missing').body);
    const refused = await app.inject({
      method: 'POST',
      url: '/echo/1',
      headers: { authorization: 'Bearer nope' },
      payload: { name: 'a', rows: [] },
    });
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toEqual({ detail: 'Invalid or missing API key' });
    const ok = await app.inject({ method: 'POST', url: '/echo/1', headers: good, payload: { name: 'a', rows: [] } });
    expect(ok.json()).toEqual({ caller: OWNER.workspaceId });
  });

  test('a session cookie auth refuses is told to sign in again, not that a key is invalid', async () => {
    const app = await gateway();
    const ended = await app.inject({
      method: 'POST',
      url: '/echo/1',
      cookies: { rde_session: 'signed-out' },
      payload: { name: 'a', rows: [] },
    });
    expect(ended.statusCode).toBe(401);
    expect(ended.json()).toEqual(errors.notAuthenticated('session_ended').body);
  });

  test('a malformed JSON body is a 400 in the same shape, and unknown routes are a JSON 404 without auth', async () => {
    const app = await gateway();
    const malformed = await app.inject({
      method: 'POST',
      url: '/echo/1',
      headers: { ...good, 'content-type': 'application/json' },
      payload: '{"name":',
    });
    expect(malformed.statusCode).toBe(400);
    expect(typeof malformed.json().detail).toBe('string');
    const unknown = await app.inject({ method: 'GET', url: '/nowhere' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ detail: 'Not Found' });
  });
});

describe('bearer resolution', () => {
  test('a resolved bearer is trusted for RDE_BEARER_CACHE_MS, then asked again; a refused one never is', async () => {
    const clock = new ManualClock();
    const resolved: string[] = [];
    const app = await gateway(clock, resolved);
    const call = (authorization: string) =>
      app.inject({ method: 'POST', url: '/echo/1', headers: { authorization }, payload: { name: 'a', rows: [] } });
    await call('Bearer good');
    await call('Bearer good');
    expect(resolved).toEqual(['good']);
    clock.advance(2_001);
    await call('Bearer good');
    expect(resolved).toEqual(['good', 'good']);
    await call('Bearer nope');
    await call('Bearer nope');
    expect(resolved).toEqual(['good', 'good', 'nope', 'nope']);
  });
});
