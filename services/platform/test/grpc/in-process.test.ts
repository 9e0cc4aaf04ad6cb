import { status as GrpcStatus } from '@grpc/grpc-js';
import pino from 'pino';
import { auth, protoFileOf } from '@rde/proto';
import { createClient, errors, GrpcServer, type Caller, type Handlers } from '../../src';
import { CALLER } from './caller';

/** An auth server whose handler records what reached it: the caller and the transport's user-agent header. */
async function startServer(inProcess: boolean) {
  const seen: { caller?: Caller; userAgent: unknown[] }[] = [];
  const handlers = {
    resolveBearer: async (request: auth.ResolveBearerRequest, context) => {
      seen.push({ caller: context.caller, userAgent: context.metadata.get('user-agent') });
      if (request.token === 'bad') throw errors.unauthenticated('Invalid or missing API key');
      if (request.token === 'slow') await new Promise((resolve) => setTimeout(resolve, 1_000));
      return { caller: { ...context.caller!, keyId: request.token } };
    },
  } as Handlers<typeof auth.AuthServiceService>;
  const server = new GrpcServer({
    name: 'in-process-test',
    host: '127.0.0.1',
    port: 0,
    logger: pino({ level: 'silent' }),
    drainMs: 0,
    inProcess,
    services: [
      {
        fullName: 'rde.auth.v1.AuthService',
        definition: auth.AuthServiceService,
        handlers,
        protoFile: protoFileOf('auth'),
      },
    ],
  });
  const address = await server.listen();
  const client = createClient(auth.AuthServiceService, {
    address,
    deadlineMs: 200,
  });
  return { server, client, seen };
}

describe('in-process calls (all-in-one)', () => {
  test('a server of this process answers without HTTP/2, with the same caller, error table and deadline', async () => {
    const { server, client, seen } = await startServer(true);
    const answer = await client.rpc.resolveBearer({ token: 'good', workspaceId: '' }, { caller: CALLER });
    expect(answer.caller).toEqual({ ...CALLER, keyId: 'good' });
    expect(seen[0]).toEqual({ caller: CALLER, userAgent: [] });

    const refused = await client.rpc
      .resolveBearer({ token: 'bad', workspaceId: '' }, { caller: CALLER })
      .catch((e) => e);
    expect(refused).toMatchObject({
      code: GrpcStatus.UNAUTHENTICATED,
      httpStatus: 401,
      body: { detail: 'Invalid or missing API key' },
    });
    const late = await client.rpc.resolveBearer({ token: 'slow', workspaceId: '' }, { caller: CALLER }).catch((e) => e);
    expect(late).toMatchObject({ code: GrpcStatus.DEADLINE_EXCEEDED, httpStatus: 504 });
    client.close();
    await server.stop();
  });

  test('a server that does not take in-process calls is reached over HTTP/2', async () => {
    const { server, client, seen } = await startServer(false);
    await client.rpc.resolveBearer({ token: 'good', workspaceId: '' }, { caller: CALLER });
    expect(seen[0].caller).toEqual(CALLER);
    expect(String(seen[0].userAgent[0])).toMatch(/grpc-node-js/);
    client.close();
    await server.stop();
  });

  test('once the server stops, its in-process callers are told UNAVAILABLE as network callers are', async () => {
    const { server, client } = await startServer(true);
    await server.stop();
    const failure = await client.rpc
      .resolveBearer({ token: 'good', workspaceId: '' }, { caller: CALLER })
      .catch((e) => e);
    expect(failure).toMatchObject({ code: GrpcStatus.UNAVAILABLE, httpStatus: 503 });
    client.close();
  });
});
