import { status as GrpcStatus } from '@grpc/grpc-js';
import pino from 'pino';
import { auth, dataset, protoFileOf } from '@rde/proto';
import {
  createClient,
  errors,
  GrpcServer,
  HealthProbe,
  LIVENESS,
  RdeError,
  type Caller,
  type Handlers,
} from '../../src';
import { CALLER } from './caller';

const logger = pino({ level: 'silent' });

/** A server hosting two real contracts with handlers that exercise the kit, not the services. */
async function startServer(overrides: Partial<Handlers<typeof auth.AuthServiceService>> = {}) {
  const seen: (Caller | undefined)[] = [];
  let resolveCalls = 0;
  const authHandlers = {
    resolveBearer: async (request: auth.ResolveBearerRequest, context: { caller?: Caller }) => {
      resolveCalls += 1;
      seen.push(context.caller);
      if (request.token === 'bad') throw errors.unauthenticated('Invalid or missing API key');
      if (request.token === 'crash') throw new Error('secret internal detail');
      return {
        caller: { workspaceId: 'ws_1', userId: 'u_1', role: 'owner', keyId: 'k', sessionId: '', requestId: '' },
      };
    },
    ...overrides,
  } as Handlers<typeof auth.AuthServiceService>;
  const datasetHandlers = {
    exportCsv: async function* (request: dataset.ExportCsvRequest) {
      if (request.datasetId === 'missing') throw errors.notFound();
      for (let i = 0; i < 1000; i += 1) yield { chunk: Buffer.from(`row ${i}\n`) };
    },
  } as unknown as Handlers<typeof dataset.DatasetServiceService>;
  const server = new GrpcServer({
    name: 'kit-test',
    host: '127.0.0.1',
    port: 0,
    logger,
    drainMs: 50,
    services: [
      {
        fullName: 'rde.auth.v1.AuthService',
        definition: auth.AuthServiceService,
        handlers: authHandlers,
        protoFile: protoFileOf('auth'),
      },
      {
        fullName: 'rde.dataset.v1.DatasetService',
        definition: dataset.DatasetServiceService,
        handlers: datasetHandlers,
        protoFile: protoFileOf('dataset'),
      },
    ],
  });
  const address = await server.listen();
  return { server, address, seen, calls: () => resolveCalls };
}

describe('gRPC kit', () => {
  test('health is NOT_SERVING until the service says so, SERVING after, NOT_SERVING once draining', async () => {
    const { server, address } = await startServer();
    const probe = new HealthProbe(address);
    expect(await probe.check()).toBe('NOT_SERVING');
    expect(await probe.check(1000, 'rde.auth.v1.AuthService')).toBe('NOT_SERVING');
    server.setServing(true);
    expect(await probe.check()).toBe('SERVING');
    const stopping = server.stop();
    expect(await probe.check()).toBe('NOT_SERVING');
    await stopping;
    expect(await probe.check(300)).toBe('UNREACHABLE');
    probe.close();
  });

  test('the liveness service answers SERVING while the process runs, even when not ready and while draining', async () => {
    const { server, address } = await startServer();
    const probe = new HealthProbe(address);
    expect(await probe.check(1000, LIVENESS)).toBe('SERVING');
    expect(await probe.check()).toBe('NOT_SERVING');
    const stopping = server.stop();
    expect(await probe.check(1000, LIVENESS)).toBe('SERVING');
    await stopping;
    probe.close();
  });

  test('the caller travels in metadata and an RdeError crosses the wire with its HTTP status and body', async () => {
    const { server, address, seen } = await startServer();
    const client = createClient(auth.AuthServiceService, {
      address,
      deadlineMs: 2000,
    });
    const ok = await client.rpc.resolveBearer({ token: 'good', workspaceId: '' }, { caller: CALLER });
    expect(ok.caller?.workspaceId).toBe('ws_1');
    expect(seen[0]).toEqual(CALLER);

    const failure = await client.rpc.resolveBearer({ token: 'bad', workspaceId: '' }).catch((e) => e);
    expect(failure).toBeInstanceOf(RdeError);
    expect(failure).toMatchObject({
      code: GrpcStatus.UNAUTHENTICATED,
      httpStatus: 401,
      body: { detail: 'Invalid or missing API key' },
    });
    client.close();
    await server.stop();
  });

  test('an unexpected exception becomes a 500 that does not leak its message', async () => {
    const { server, address } = await startServer();
    const client = createClient(auth.AuthServiceService, {
      address,
      deadlineMs: 2000,
    });
    const failure = await client.rpc.resolveBearer({ token: 'crash', workspaceId: '' }).catch((e) => e);
    expect(failure).toMatchObject({ httpStatus: 500, body: { detail: 'Internal Server Error' } });
    expect(JSON.stringify(failure.body)).not.toContain('secret');
    client.close();
    await server.stop();
  });

  test('a server stream arrives whole and in order; a stream error surfaces as the RdeError', async () => {
    const { server, address } = await startServer();
    const client = createClient(dataset.DatasetServiceService, {
      address,
      deadlineMs: 5000,
    });
    const lines: string[] = [];
    for await (const part of client.rpc.exportCsv({ datasetId: 'ds_1' }))
      lines.push(Buffer.from(part.chunk).toString());
    expect(lines).toHaveLength(1000);
    expect(lines[999]).toBe('row 999\n');
    const failure = await (async () => {
      for await (const _ of client.rpc.exportCsv({ datasetId: 'missing' })) void _;
    })().catch((e) => e);
    expect(failure).toMatchObject({ httpStatus: 404 });
    client.close();
    await server.stop();
  });

  test('a deadline bounds every call', async () => {
    const { server, address } = await startServer({
      resolveBearer: () => new Promise(() => undefined),
    });
    const client = createClient(auth.AuthServiceService, {
      address,
      deadlineMs: 100,
    });
    const failure = await client.rpc.resolveBearer({ token: 'x', workspaceId: '' }).catch((e) => e);
    expect(failure).toMatchObject({ code: GrpcStatus.DEADLINE_EXCEEDED, httpStatus: 504 });
    client.close();
    await server.stop();
  });

  test('only RPCs marked idempotent are retried, up to 3 attempts, when the server answers UNAVAILABLE', async () => {
    // The server counts attempts and answers every one with UNAVAILABLE.
    const { server, address, calls } = await startServer({
      resolveBearer: async () => {
        attempts += 1;
        throw errors.unavailable('try again');
      },
    });
    let attempts = 0;
    server.setServing(true);
    const clientOf = (idempotent: 'resolveBearer'[]) =>
      createClient(auth.AuthServiceService, {
        address,
        deadlineMs: 3000,
        idempotent, // [] overrides the contract, which marks ResolveBearer idempotent
      });
    const attemptsOf = async (idempotent: 'resolveBearer'[]) => {
      attempts = 0;
      const client = clientOf(idempotent);
      const error = await client.rpc.resolveBearer({ token: 'x', workspaceId: '' }).catch((e) => e);
      client.close();
      expect(error).toMatchObject({ code: GrpcStatus.UNAVAILABLE, httpStatus: 503 });
      return attempts;
    };
    expect(await attemptsOf(['resolveBearer'])).toBe(3);
    expect(await attemptsOf([])).toBe(1);
    expect(calls()).toBe(0); // the default handler never ran: every attempt met the counting one
    await server.stop();
  });

  test('a gRPC client-side failure (a request that cannot be serialised) never leaks gRPC’s text', async () => {
    const { server, address } = await startServer();
    const client = createClient(dataset.DatasetServiceService, { address, deadlineMs: 2000 });
    // int32 offset out of range: ts-proto's writer refuses it before anything is sent.
    const failure = await client.rpc
      .listDatasets({ sessionId: '', page: { offset: 2 ** 31, limit: 10 } })
      .catch((e) => e);
    expect(failure).toBeInstanceOf(RdeError);
    expect(failure).toMatchObject({ httpStatus: 500, body: { detail: 'Internal Server Error' } });
    expect(JSON.stringify(failure.body)).not.toMatch(/serial|int32/i);
    client.close();
    await server.stop();
  });
});
