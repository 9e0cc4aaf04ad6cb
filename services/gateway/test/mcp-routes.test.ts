import pino from 'pino';
import { InMemoryKeyValue, ManualClock } from '@rde/platform';
import { buildGateway } from '../src/app';
import { gatewayConfig } from '../src/config';
import type { Clients } from '../src/clients';
import type { DownstreamHealth } from '../src/downstreams';

/** The gateway's MCP edge alone: what it answers before any call reaches the mcp service. */
async function gateway(env: NodeJS.ProcessEnv = {}) {
  const served: unknown[] = [];
  const clients = {
    auth: {
      resolveBearer: async () => ({
        caller: { workspaceId: 'ws', userId: 'u', role: 'owner', keyId: 'k', sessionId: '', requestId: '' },
      }),
    },
    mcp: { serve: async (request: unknown) => (served.push(request), { status: 200, headers: [], body: '{}' }) },
    close: () => undefined,
  } as unknown as Clients;
  const app = await buildGateway({
    config: gatewayConfig(env),
    logger: pino({ level: 'silent' }),
    clock: new ManualClock(),
    clients,
    keyValue: new InMemoryKeyValue(),
    downstreams: { check: async () => ({}), close: () => undefined } as unknown as DownstreamHealth,
    isDraining: () => false,
    // What light-my-request's default Host names.
    publicOrigin: () => 'http://localhost',
  });
  return { app, served };
}

describe('gateway MCP edge', () => {
  test('the apps directory challenge is 404 when no token is configured', async () => {
    const { app } = await gateway();
    const response = await app.inject({ method: 'GET', url: '/.well-known/openai-apps-challenge' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ detail: 'Not Found' });
  });

  test('a body that is not JSON is refused before the mcp service is asked', async () => {
    const { app, served } = await gateway();
    const response = await app.inject({
      method: 'POST',
      url: '/api/v2/mcp',
      headers: { 'content-type': 'application/json', authorization: 'Bearer good' },
      payload: '{"jsonrpc": ',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ detail: expect.any(String) });
    expect(served).toEqual([]);
  });

  test('a JSON body that is neither an object nor a batch is a 422 in the spec format', async () => {
    const { app, served } = await gateway();
    const response = await app.inject({
      method: 'POST',
      url: '/api/v2/mcp',
      headers: { 'content-type': 'application/json', authorization: 'Bearer good' },
      payload: '"tools/list"',
    });
    expect(response.statusCode).toBe(422);
    expect(response.json().detail[0]).toMatchObject({ loc: ['body'] });
    expect(served).toEqual([]);
  });

  test('DELETE answers 405 without a bearer and never reaches the mcp service', async () => {
    const { app, served } = await gateway();
    const response = await app.inject({ method: 'DELETE', url: '/api/v2/mcp' });
    expect(response.statusCode).toBe(405);
    expect(response.headers.allow).toBe('POST');
    expect(served).toEqual([]);
  });
});
