import {
  Server,
  ServerCredentials,
  status as GrpcStatus,
  type Metadata,
  type sendUnaryData,
  type ServerUnaryCall,
  type ServerWritableStream,
  type ServiceDefinition,
  type UntypedServiceImplementation,
} from '@grpc/grpc-js';
import { HealthImplementation } from 'grpc-health-check';
import { ReflectionService } from '@grpc/reflection';
import { loadSync } from '@grpc/proto-loader';
import { protoRoot } from '@rde/proto';
import type { Logger } from '../logger';
import { errors, RdeError } from '../errors';
import { grpcServerDuration } from '../metrics';
import { readCaller, type Caller } from './metadata';
import { registerLocalService, unregisterLocalServices } from './in-process';
import { toServiceError } from './status-codec';
import { tracedImplementation } from './tracing';
import type { RequestOf, ResponseOf } from './types';

/** The health-check service name that only says the process answers. */
export const LIVENESS = 'liveness';

export interface CallContext {
  /** Present on calls that came through the gateway (or another service acting for a caller). */
  readonly caller?: Caller;
  readonly metadata: Metadata;
}

/** The caller of a call that must act for a workspace: one that acts for nobody is refused (401). */
export function workspaceCallerOf(context: CallContext): Caller {
  if (!context.caller?.workspaceId) throw errors.unauthenticated();
  return context.caller;
}

/**
 * A service's handlers, written as plain functions over proto messages: async for unary RPCs,
 * an async iterable for server-streaming ones.
 */
export type Handlers<D extends ServiceDefinition> = {
  [K in keyof D]: D[K] extends { responseStream: true }
    ? (request: RequestOf<D[K]>, context: CallContext) => AsyncIterable<ResponseOf<D[K]>>
    : (request: RequestOf<D[K]>, context: CallContext) => Promise<ResponseOf<D[K]>>;
};

export interface HostedService<D extends ServiceDefinition = ServiceDefinition> {
  /** The fully qualified name health checks use, e.g. `rde.auth.v1.AuthService`. */
  readonly fullName: string;
  readonly definition: D;
  readonly handlers: Handlers<D>;
  /** Its proto file relative to the contracts root, for reflection. */
  readonly protoFile: string;
}

export interface GrpcServerOptions {
  readonly name: string;
  readonly host: string;
  readonly port: number;
  readonly logger: Logger;
  readonly services: HostedService[];
  /** How long to keep answering after draining starts, so balancers see NOT_SERVING first. */
  readonly drainMs: number;
  /** Clients in this process reach it without HTTP/2 framing (decision 0014); others still over the network. */
  readonly inProcess?: boolean;
}

/**
 * A gRPC server with the standard health service (NOT_SERVING until the service says its
 * dependencies are up, and again once draining starts), reflection and graceful shutdown.
 */
export class GrpcServer {
  private readonly server = new Server();
  private readonly health: HealthImplementation;
  private readonly implementations = new Map<HostedService, UntypedServiceImplementation>();
  private boundPort = 0;

  constructor(private readonly options: GrpcServerOptions) {
    // "liveness" answers SERVING while the process does (Kubernetes' liveness probe); the others
    // follow the dependencies and draining (the readiness probe), so a store outage never restarts pods.
    this.health = new HealthImplementation({ ...this.statusMap('NOT_SERVING'), [LIVENESS]: 'SERVING' });
    // Health checks get SERVER spans too: the gateway's readiness probes are part of its requests' traces.
    const server = this.server;
    this.health.addToServer({
      addService: (definition, implementation) =>
        server.addService(definition, tracedImplementation(definition, implementation)),
    } as Pick<Server, 'addService'> as Server);
    for (const service of options.services) {
      // A contract with no RPCs yet still answers health and reflection; grpc-js refuses it as a service.
      if (Object.keys(service.definition).length === 0) continue;
      const implementation = tracedImplementation(service.definition, wrapHandlers(service, options.logger));
      this.implementations.set(service, implementation);
      this.server.addService(service.definition, implementation);
    }
    const contracts = loadSync(
      options.services.map((s) => s.protoFile),
      { includeDirs: [protoRoot] },
    );
    new ReflectionService(contracts).addToServer(this.server);
  }

  get address(): string {
    return `${this.options.host}:${this.boundPort}`;
  }

  async listen(): Promise<string> {
    this.boundPort = await new Promise<number>((resolve, reject) =>
      this.server.bindAsync(
        `${this.options.host}:${this.options.port}`,
        ServerCredentials.createInsecure(),
        (error, port) => (error ? reject(error) : resolve(port)),
      ),
    );
    if (this.options.inProcess) {
      for (const [service, implementation] of this.implementations) {
        registerLocalService(this.address, service.fullName, { definition: service.definition, implementation });
      }
    }
    this.options.logger.info(
      { address: this.address, inProcess: this.options.inProcess === true },
      'gRPC server listening',
    );
    return this.address;
  }

  /** Declares the service ready (its store, bus and key-value answered) or not. */
  setServing(serving: boolean): void {
    const status = serving ? 'SERVING' : 'NOT_SERVING';
    for (const [service] of Object.entries(this.statusMap(status))) this.health.setStatus(service, status);
  }

  async stop(): Promise<void> {
    this.setServing(false);
    await new Promise((resolve) => setTimeout(resolve, this.options.drainMs));
    unregisterLocalServices(this.address);
    await new Promise<void>((resolve) => {
      const force = setTimeout(() => {
        this.server.forceShutdown();
        resolve();
      }, 5_000);
      this.server.tryShutdown(() => {
        clearTimeout(force);
        resolve();
      });
    });
  }

  private statusMap(status: 'SERVING' | 'NOT_SERVING'): Record<string, typeof status> {
    const map: Record<string, typeof status> = { '': status };
    for (const service of this.options.services) map[service.fullName] = status;
    return map;
  }
}

function wrapHandlers(service: HostedService, logger: Logger): UntypedServiceImplementation {
  const implementation: UntypedServiceImplementation = {};
  const report = (method: string, error: unknown) => {
    if (!(error instanceof RdeError) || error.httpStatus >= 500) {
      logger.error({ err: error, method: `${service.fullName}/${method}` }, 'RPC failed');
    }
    return toServiceError(error);
  };
  for (const [method, handler] of Object.entries(service.handlers) as [string, Function][]) {
    const streaming = service.definition[method].responseStream;
    const timed = () => {
      const done = grpcServerDuration.startTimer({ service: service.fullName, method });
      return (code: GrpcStatus) => done({ code: GrpcStatus[code] });
    };
    implementation[method] = streaming
      ? (call: ServerWritableStream<unknown, unknown>) => {
          const finish = timed();
          // grpc-js ends a server stream with a status when the call emits 'error'.
          void streamResponses(handler(call.request, contextOf(call)) as AsyncIterable<unknown>, call).then(
            () => finish(GrpcStatus.OK),
            (error) => {
              const failure = report(method, error);
              finish(failure.code ?? GrpcStatus.UNKNOWN);
              call.emit('error', failure);
            },
          );
        }
      : (call: ServerUnaryCall<unknown, unknown>, callback: sendUnaryData<unknown>) => {
          const finish = timed();
          (handler(call.request, contextOf(call)) as Promise<unknown>).then(
            (response) => {
              finish(GrpcStatus.OK);
              callback(null, response);
            },
            (error: unknown) => {
              const failure = report(method, error);
              finish(failure.code ?? GrpcStatus.UNKNOWN);
              callback(failure);
            },
          );
        };
  }
  return implementation;
}

function contextOf(call: { metadata: Metadata }): CallContext {
  return { caller: readCaller(call.metadata), metadata: call.metadata };
}

/** Writes each item, waiting for the client to drain when the buffer is full (backpressure). */
async function streamResponses(items: AsyncIterable<unknown>, call: ServerWritableStream<unknown, unknown>) {
  for await (const item of items) {
    if (call.cancelled) return;
    if (!call.write(item)) await drainedOrGone(call);
  }
  call.end();
}

/** Waits for the client to take more, or for it to go away (so the source's cursor is released). */
function drainedOrGone(call: ServerWritableStream<unknown, unknown>): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      call.off('drain', done);
      call.off('cancelled', done);
      call.off('close', done);
      resolve();
    };
    call.once('drain', done);
    call.once('cancelled', done);
    call.once('close', done);
  });
}
