import {
  credentials,
  makeGenericClientConstructor,
  Metadata,
  type Client,
  type ServiceDefinition,
  type ServiceError,
} from '@grpc/grpc-js';
import { isIP } from 'node:net';
import type { Readable } from 'node:stream';
import { service as healthService } from 'grpc-health-check';
import { idempotentMethodsOf, serviceNameOf } from './contracts';
import { callLocal, localService } from './in-process';
import { writeCaller, type Caller } from './metadata';
import { fromServiceError } from './status-codec';
import { tracedCall, withTraceContext } from './tracing';
import type { RequestOf, ResponseOf } from './types';

export interface CallOptions {
  /** Whom the call acts for; travels as `rde-caller-bin` metadata. */
  readonly caller?: Caller;
  readonly deadlineMs?: number;
}

/**
 * One function per RPC: a promise for unary RPCs, an async iterable for server-streaming ones.
 * Failures reject (or throw from the iterator) with the service's RdeError.
 */
export type PromiseClient<D extends ServiceDefinition> = {
  [K in keyof D]: D[K] extends { responseStream: true }
    ? (request: RequestOf<D[K]>, options?: CallOptions) => AsyncIterable<ResponseOf<D[K]>>
    : (request: RequestOf<D[K]>, options?: CallOptions) => Promise<ResponseOf<D[K]>>;
};

export interface ClientOptions<D extends ServiceDefinition> {
  /** One `host:port`, or a comma-separated list of replicas' `ip:port` (see `channelTarget`). */
  readonly address: string;
  /** Every call gets a deadline; this is the default. */
  readonly deadlineMs: number;
  /**
   * Only these RPCs are retried (on UNAVAILABLE), because only they are safe to repeat. By default
   * the ones the contract marks with `idempotency_level` (decision 0015).
   */
  readonly idempotent?: readonly (keyof D & string)[];
}

export interface ServiceClient<D extends ServiceDefinition> {
  readonly rpc: PromiseClient<D>;
  close(): void;
}

export function createClient<D extends ServiceDefinition>(definition: D, options: ClientOptions<D>): ServiceClient<D> {
  const serviceName = serviceNameOf(definition);
  const idempotent = options.idempotent ?? idempotentMethodsOf(definition);
  const Constructor = makeGenericClientConstructor(definition, serviceName);
  const client = new Constructor(channelTarget(options.address), credentials.createInsecure(), {
    ...REPLICA_CHANNEL_OPTIONS,
    'grpc.service_config': JSON.stringify({ ...ROUND_ROBIN, ...retryConfig(definition, serviceName, idempotent) }),
  });
  const rpc = {} as Record<string, unknown>;
  for (const [method, { responseStream }] of Object.entries(definition)) {
    const { path } = definition[method];
    rpc[method] = (request: unknown, callOptions: CallOptions = {}) => {
      const deadlineMs = callOptions.deadlineMs ?? options.deadlineMs;
      const metadata = callerMetadata(callOptions.caller);
      if (responseStream) return streamingCall(client, method, request, deadlineMs, withTraceContext(metadata));
      // A server of this process that accepts in-process calls answers unary RPCs without HTTP/2 (decision 0014).
      const local = localService(options.address, serviceName);
      return tracedCall(path, metadata, () =>
        local
          ? callLocal(local, method, request, metadata, deadlineMs)
          : unaryCall(client, method, request, deadlineMs, metadata),
      );
    };
  }
  return { rpc: rpc as PromiseClient<D>, close: () => client.close() };
}

function callerMetadata(caller?: Caller): Metadata {
  const metadata = new Metadata();
  if (caller) writeCaller(metadata, caller);
  return metadata;
}

function methodOf(client: Client, method: string): Function {
  return (client as unknown as Record<string, Function>)[method].bind(client);
}

function unaryCall(client: Client, method: string, request: unknown, deadlineMs: number, metadata: Metadata) {
  return new Promise((resolve, reject) =>
    methodOf(client, method)(
      request,
      metadata,
      { deadline: Date.now() + deadlineMs },
      (error: ServiceError | null, response: unknown) => (error ? reject(fromServiceError(error)) : resolve(response)),
    ),
  );
}

/** A server stream as an async iterable; the deadline covers the whole stream. */
async function* streamingCall(
  client: Client,
  method: string,
  request: unknown,
  deadlineMs: number,
  metadata: Metadata,
) {
  const stream: Readable = methodOf(client, method)(request, metadata, {
    deadline: Date.now() + deadlineMs,
  });
  try {
    for await (const item of stream) yield item;
  } catch (error) {
    throw fromServiceError(error as ServiceError);
  }
}

/**
 * The channel target for a service's address. Replicas are reached the way a Kubernetes headless
 * Service offers them: one DNS name that resolves to every replica (`billing:7102`), or, where no
 * such name exists (tests, a static setup), a comma-separated list of `ip:port`. grpc-js resolves
 * a list only from IP literals, so a list of names is refused here rather than at the first call.
 */
export function channelTarget(address: string): string {
  const replicas = address.split(',').map((replica) => replica.trim());
  if (replicas.length === 1) return replicas[0];
  const families = new Set(replicas.map((replica) => isIP(replica.replace(/^\[|\]?:\d+$/g, ''))));
  if (families.size !== 1 || families.has(0)) {
    throw new Error(`${address}: a list of replicas must be ip:port of one IP family; use one DNS name for names`);
  }
  return `${families.has(6) ? 'ipv6' : 'ipv4'}:${replicas.join(',')}`;
}

/** Spread calls over every ready replica (grpc-js' default, pick_first, uses one). */
const ROUND_ROBIN = { loadBalancingConfig: [{ round_robin: {} }] };

/** The longest a client takes to retry connecting to a replica that went away. */
export const RECONNECT_BACKOFF_MAX_MS = 1_000;

const REPLICA_CHANNEL_OPTIONS = {
  'grpc.enable_retries': 1,
  // A restarted replica is back in rotation within a second of listening again (grpc-js' default
  // backoff grows to two minutes, leaving the other replica alone with the load for that long).
  'grpc.initial_reconnect_backoff_ms': 200,
  'grpc.max_reconnect_backoff_ms': RECONNECT_BACKOFF_MAX_MS,
};

/**
 * grpc-js retries natively from the service config; only idempotent methods get a policy. A call
 * that fails UNAVAILABLE on a replica that died is retried, and round_robin sends the retry to a
 * replica that is still ready.
 */
function retryConfig<D extends ServiceDefinition>(
  definition: D,
  serviceName: string,
  idempotent: readonly (keyof D & string)[],
) {
  const names = idempotent.map((method) => ({
    service: serviceName,
    method: definition[method].path.split('/').pop(),
  }));
  // Round robin spreads calls over every address of a multi-address target (replicas).
  const loadBalancingConfig = [{ round_robin: {} }];
  if (names.length === 0) return { loadBalancingConfig, methodConfig: [] };
  return {
    loadBalancingConfig,
    methodConfig: [
      {
        name: names,
        retryPolicy: {
          maxAttempts: 3,
          initialBackoff: '0.05s',
          maxBackoff: '0.5s',
          backoffMultiplier: 2,
          retryableStatusCodes: ['UNAVAILABLE'],
        },
      },
    ],
  };
}

export type ServingStatus = 'SERVING' | 'NOT_SERVING' | 'UNKNOWN' | 'UNREACHABLE';

/**
 * Asks a server's standard health service; an unreachable server answers UNREACHABLE. Over
 * replicas, each check goes to the next ready one: the service answers while any replica does.
 */
export class HealthProbe {
  private readonly client: Client;

  constructor(address: string) {
    const Constructor = makeGenericClientConstructor(
      healthService as unknown as ServiceDefinition,
      'grpc.health.v1.Health',
    );
    this.client = new Constructor(channelTarget(address), credentials.createInsecure(), {
      ...REPLICA_CHANNEL_OPTIONS,
      'grpc.service_config': JSON.stringify(ROUND_ROBIN),
    });
  }

  check(deadlineMs = 1_000, service = ''): Promise<ServingStatus> {
    const call = (this.client as unknown as Record<string, Function>).Check.bind(this.client);
    return new Promise((resolve) =>
      call(
        { service },
        withTraceContext(new Metadata()),
        { deadline: Date.now() + deadlineMs },
        (error: unknown, response: { status: string }) =>
          resolve(error ? 'UNREACHABLE' : (response.status as ServingStatus)),
      ),
    );
  }

  close(): void {
    this.client.close();
  }
}
