import type { FastifyInstance, FastifyReply, FastifyRequest, FastifySchema, RouteGenericInterface } from 'fastify';
import { vendorQuestion } from '../domain/coverage';
import { gaussian, sampleLatency, type KnobDefaults } from '../domain/knobs';
import { isLoopbackUrl } from '../domain/loopback';
import { TokenBucket } from '../domain/rate-limit';
import type { Universe } from '../domain/universe';
import type { Counters } from './counters';
import type { Callback, Job, JobBoard } from './jobs';
import type { KnobBoard } from './knob-board';
import type { VendorDescriptor } from './vendor-descriptor';

export interface SandboxState {
  readonly universe: Universe;
  readonly knobs: KnobBoard;
  readonly counters: Counters;
  readonly jobs: JobBoard;
  /** Aborted when the server stops: cuts injected waits short. */
  readonly stopping: AbortSignal;
}

/** What a vendor's route handlers work with. */
export interface VendorContext {
  readonly universe: Universe;
  /** Whether the vendor knows this person: its hit rate times the hit-rate knob. */
  knows(id: number): boolean;
  /** A fixed per-person quirk of this vendor at `rate` (for example "mixes them up with someone else"). */
  sometimes(quirk: string, id: number, rate: number): boolean;
  /**
   * Submits a job that completes after the job-duration knob and POSTs the callback then. Answers
   * 'refused' for a callback URL off loopback (see isLoopbackUrl), submitting nothing.
   */
  submitJob<T>(idPrefix: string, result: T, callback?: Callback): Job<T> | 'refused';
  /** The job if it exists and is done, `pending` if not done yet, undefined if unknown. */
  pollJob<T>(id: string): Job<T> | 'pending' | undefined;
  /** The vendor's error answer. */
  fail(reply: FastifyReply, status: number, message: string): FastifyReply;
}

export type RouteHandler<T extends RouteGenericInterface> = (
  request: FastifyRequest<T>,
  reply: FastifyReply,
) => Promise<unknown>;

export interface VendorRoutes {
  on<T extends RouteGenericInterface>(endpoint: string, schema: FastifySchema, handler: RouteHandler<T>): void;
}

export interface VendorDefinition {
  readonly descriptor: VendorDescriptor;
  readonly knobDefaults: KnobDefaults;
  /** The body of the vendor's error answers, in its own shape. */
  errorBody(status: number, message: string): unknown;
  routes(routes: VendorRoutes, vendor: VendorContext): void;
}

/**
 * Mounts a vendor under its prefix with the behaviour every vendor shares, in the order a real
 * one applies it: count, authenticate, rate-limit, wait (latency knob), inject a fault
 * (timeout, 5xx, malformed body), answer.
 */
export function registerVendor(app: FastifyInstance, definition: VendorDefinition, state: SandboxState): void {
  const { descriptor } = definition;
  const vendor = descriptor.id;
  const expectedAuth = descriptor.auth.scheme
    ? `${descriptor.auth.scheme} ${descriptor.auth.key}`
    : descriptor.auth.key;
  const authHeader = descriptor.auth.header.toLowerCase();
  const malformed = new WeakSet<FastifyRequest>();
  let limiter: { config: unknown; bucket: TokenBucket } | undefined;

  const fail = (reply: FastifyReply, status: number, message: string) =>
    reply.code(status).send(definition.errorBody(status, message));

  const rateLimited = (): number | undefined => {
    const config = state.knobs.get(vendor).rate_limit;
    if (config === null) return undefined;
    if (limiter?.config !== config)
      limiter = { config, bucket: new TokenBucket(config.per_second, config.burst, Date.now()) };
    const verdict = limiter.bucket.take(Date.now());
    return verdict.allowed ? undefined : verdict.retryAfterSeconds;
  };

  /** After latency: one roll, so the three fault rates are shares of the same requests, never stacked. */
  const injectFault = (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
    const knobs = state.knobs.get(vendor);
    const { timeout, server_error: serverError, malformed: malformedRate } = knobs.faults;
    const roll = Math.random();
    if (roll < timeout) {
      void sleep(knobs.timeout_hang_ms, state.stopping).then(() => fail(reply, 504, 'upstream timeout'));
      return;
    }
    if (roll < timeout + serverError) {
      fail(reply, [500, 502, 503][Math.floor(Math.random() * 3)]!, 'internal error');
      return;
    }
    if (roll < timeout + serverError + malformedRate) malformed.add(request);
    done();
  };

  // Hooks are per route (the endpoint is known without a lookup) and callback-style: this path
  // runs on every vendor call, and benchmarks of later services must never wait on it.
  const hooksFor = (endpoint: string) => ({
    onRequest(request: FastifyRequest, reply: FastifyReply, done: () => void) {
      state.counters.request(vendor, endpoint);
      if (request.headers[authHeader] !== expectedAuth) {
        fail(reply, 401, `missing or invalid ${descriptor.auth.header}`);
        return;
      }
      const retryAfter = rateLimited();
      if (retryAfter !== undefined) {
        fail(reply.header('retry-after', String(retryAfter)), 429, 'rate limit exceeded');
        return;
      }
      const latency = sampleLatency(state.knobs.get(vendor).latency_ms, gaussian());
      if (latency >= 1) void sleep(latency, state.stopping).then(() => injectFault(request, reply, done));
      else injectFault(request, reply, done);
    },
    onSend(
      request: FastifyRequest,
      _reply: FastifyReply,
      payload: unknown,
      done: (error: null, payload: unknown) => void,
    ) {
      done(
        null,
        malformed.has(request) && typeof payload === 'string'
          ? payload.slice(0, Math.floor(payload.length / 2))
          : payload,
      );
    },
    onResponse(_request: FastifyRequest, reply: FastifyReply, done: () => void) {
      state.counters.response(vendor, endpoint, reply.statusCode);
      done();
    },
  });

  const knows = vendorQuestion(state.universe, vendor, 'knows');
  const context: VendorContext = {
    universe: state.universe,
    knows: (id) => knows(id, descriptor.hitRate * state.knobs.get(vendor).hit_rate_multiplier),
    sometimes: (quirk, id, rate) => vendorQuestion(state.universe, vendor, quirk)(id, rate),
    submitJob: (idPrefix, result, callback) =>
      callback && !isLoopbackUrl(callback.url)
        ? 'refused'
        : state.jobs.submit(
            vendor,
            idPrefix,
            result,
            Math.round(sampleLatency(state.knobs.get(vendor).job_duration_ms, gaussian())),
            callback,
          ),
    pollJob: <T>(id: string) => {
      const job = state.jobs.find<T>(vendor, id);
      return job && !state.jobs.isDone(job) ? 'pending' : job;
    },
    fail,
  };

  app.register(
    async (scope) => {
      scope.setErrorHandler(
        (error: { validation?: unknown; statusCode?: number; message: string }, _request, reply) => {
          const status = error.validation ? 400 : (error.statusCode ?? 500);
          return fail(reply, status, error.message);
        },
      );
      definition.routes(
        {
          on(endpoint, schema, handler) {
            const declared = descriptor.endpoints.find((e) => e.name === endpoint);
            if (!declared) throw new Error(`${vendor} declares no endpoint ${endpoint}`);
            scope.route({
              method: declared.method,
              url: declared.path,
              schema,
              ...hooksFor(endpoint),
              handler: handler as RouteHandler<RouteGenericInterface>,
            });
          },
        },
        context,
      );
    },
    { prefix: descriptor.prefix },
  );
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done);
  });
}
