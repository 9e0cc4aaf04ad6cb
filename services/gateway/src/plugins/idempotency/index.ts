import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errorBody } from '../../contract';
import {
  fingerprintOf,
  IDEMPOTENCY_HEADER,
  idempotencyKeyHeader,
  isIdempotencyKey,
  REPLAYED_HEADER,
  runIdOf,
  storageKeyOf,
} from './fingerprint';
import { IdempotencyRecordsRepository, type KeptResponse } from './records';

export { IDEMPOTENCY_HEADER, REPLAYED_HEADER } from './fingerprint';
export { IdempotencyRecordsRepository, type RecordLimits } from './records';

/** A keyed request as a route reads it: its key, what else identifies it, and how a replay is adapted to it. */
export interface KeyedRequest {
  readonly key: string;
  /** Hashed with the method and route into the fingerprint. */
  readonly material: unknown;
  /** The stored body as this request should see it (the MCP endpoint puts the JSON-RPC id back). */
  readonly replayBody?: (body: Buffer) => Buffer;
  /** The status that decides whether an answer is kept, when the body says more than the HTTP status. */
  readonly outcomeStatus?: (status: number, body: Buffer) => number;
  /** A refusal's body in the route's own format (the MCP endpoint: a JSON-RPC error); the spec's by default. */
  readonly refusalBody?: (error: string, detail: string) => object;
}

/** Reads a route's key from somewhere other than the header (the MCP endpoint: the call's `_meta`). */
export type KeyReader = (request: FastifyRequest) => KeyedRequest | undefined;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A route that can spend credits: `header` takes `Idempotency-Key`; a reader takes the key elsewhere. */
    idempotency?: 'header' | KeyReader;
  }
  interface FastifyRequest {
    /** The run id a keyed paid call is given (derived from workspace, key and request); else undefined. */
    idempotentRunId?: string;
  }
}

/** Response headers a replay repeats besides the body; per-request ones (X-Request-Id) are not. */
const KEPT_HEADERS = ['content-type', 'location', 'link'];

/**
 * Only an answer the work produced is kept: a success, or a vendor's failure (a finished run). A
 * refusal before any work (400, 401, 402, 403, 404, 409, 415, 422, 429) is not, so a corrected retry
 * runs; nor is an unknown outcome (500, 503, 504), whose retry joins the same run by its run id.
 */
function isKeptStatus(status: number): boolean {
  return status < 400 || status === 502;
}

interface Held {
  readonly keyed: KeyedRequest;
  readonly storageKey: string;
  readonly fingerprint: string;
  /** This request on this gateway: only the owner renews, keeps or frees the key. */
  readonly owner: string;
  readonly heartbeat: NodeJS.Timeout;
  /** The renewal in flight, awaited before the answer is kept so it cannot overwrite it. */
  renewing: Promise<void>;
}

/**
 * `Idempotency-Key` on every route that can spend credits (decision 0070). The first request with a
 * key claims it (an in-flight marker with this gateway as owner and a lease it renews); its answer is
 * kept for the retention window and replayed byte for byte to the same key and request. The route
 * gets a run id derived from the key, so a retry after this gateway died joins the same paid run.
 */
export function registerIdempotency(app: FastifyInstance, records: IdempotencyRecordsRepository, leaseMs: number) {
  const gatewayId = randomBytes(6).toString('hex');
  const held = new WeakMap<FastifyRequest, Held>();

  app.addHook('onRoute', (route) => {
    if (route.config?.idempotency !== 'header') return;
    const schema = (route.schema ?? {}) as { headers?: { properties?: object }; response?: object };
    const headers = { type: 'object', ...schema.headers };
    route.schema = {
      ...schema,
      headers: { ...headers, properties: { ...headers.properties, [IDEMPOTENCY_HEADER]: idempotencyKeyHeader } },
      response: { 409: errorBody, ...schema.response },
    };
  });

  app.addHook('preHandler', async (request, reply) => {
    const keyed = request.validationError ? undefined : keyedRequestOf(request);
    const workspaceId = request.caller?.workspaceId;
    if (!keyed || !workspaceId) return;
    if (!isIdempotencyKey(keyed.key)) {
      return refuse(
        reply,
        keyed,
        422,
        'invalid_idempotency_key',
        'An idempotency key is 1–255 printable ASCII characters',
      );
    }
    const { method, routeOptions } = request;
    const fingerprint = fingerprintOf(method, routeOptions.url ?? '', request.url, keyed.material);
    const storageKey = storageKeyOf(workspaceId, keyed.key);
    const owner = `${gatewayId}:${request.id}`;
    const claim = await records.claim(storageKey, fingerprint, owner);
    if (claim.state !== 'claimed' && claim.fingerprint !== fingerprint) return refuseReuse(reply, keyed);
    if (claim.state === 'running') return refuseInFlight(reply, keyed, claim.retryAfterMs);
    if (claim.state === 'done') return replay(reply, claim.response, keyed);
    request.idempotentRunId = runIdOf(workspaceId, keyed.key, fingerprint);
    const renew = () => {
      entry.renewing = records.renew(storageKey, fingerprint, owner).catch((error: unknown) => {
        request.log.warn({ err: error }, 'idempotency lease not renewed');
      });
    };
    const entry: Held = {
      keyed,
      storageKey,
      fingerprint,
      owner,
      renewing: Promise.resolve(),
      heartbeat: setInterval(renew, leaseMs / 3).unref(),
    };
    held.set(request, entry);
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const entry = held.get(request);
    if (!entry) return payload;
    held.delete(request);
    clearInterval(entry.heartbeat);
    await entry.renewing;
    const response = keptResponse(reply, payload);
    const status = entry.keyed.outcomeStatus?.(response.status, response.body) ?? response.status;
    const { storageKey, fingerprint, owner } = entry;
    if (!isKeptStatus(status)) await records.release(storageKey, fingerprint, owner);
    else await records.keep(storageKey, fingerprint, owner, response);
    return payload;
  });

  // An answer never sent (the client went away and the send failed): stop renewing, let the lease lapse.
  app.addHook('onResponse', async (request) => {
    const entry = held.get(request);
    if (entry) clearInterval(entry.heartbeat);
  });
}

function keyedRequestOf(request: FastifyRequest): KeyedRequest | undefined {
  const reader = request.routeOptions.config.idempotency;
  if (reader === undefined) return undefined;
  if (reader !== 'header') return reader(request);
  const key = request.headers[IDEMPOTENCY_HEADER];
  if (typeof key !== 'string') return undefined;
  return { key, material: request.body };
}

function keptResponse(reply: FastifyReply, payload: unknown): KeptResponse {
  const headers: Record<string, string> = {};
  for (const name of KEPT_HEADERS) {
    const value = reply.getHeader(name);
    if (value !== undefined) headers[name] = String(value);
  }
  const body = Buffer.isBuffer(payload) ? payload : Buffer.from(typeof payload === 'string' ? payload : '');
  return { status: reply.statusCode, headers, body };
}

function replay(reply: FastifyReply, response: KeptResponse | undefined, keyed: KeyedRequest) {
  if (!response) {
    const detail =
      'This Idempotency-Key already ran, but its answer was too large to keep: read its data from the dataset it created, or send a new key';
    return refuse(reply, keyed, 409, 'idempotent_response_not_kept', detail);
  }
  const body = keyed.replayBody ? keyed.replayBody(response.body) : response.body;
  return reply.code(response.status).headers(response.headers).header(REPLAYED_HEADER, 'true').send(body);
}

function refuseReuse(reply: FastifyReply, keyed: KeyedRequest) {
  const detail =
    'This Idempotency-Key was used with a different request (method, path, query or body) in the retention window: send a new key for a new request';
  return refuse(reply, keyed, 422, 'idempotency_key_reused', detail);
}

function refuseInFlight(reply: FastifyReply, keyed: KeyedRequest, retryAfterMs: number) {
  void reply.header('retry-after', String(Math.max(1, Math.ceil(retryAfterMs / 1000))));
  const detail = 'A request with this Idempotency-Key is still running: retry after Retry-After seconds for its answer';
  return refuse(reply, keyed, 409, 'idempotency_key_in_use', detail);
}

/** A route's own refusal format is sent as text, so the route's response schema does not reshape it. */
function refuse(reply: FastifyReply, keyed: KeyedRequest, status: number, error: string, detail: string) {
  if (!keyed.refusalBody) return reply.code(status).send({ error, detail });
  return reply
    .code(status)
    .type('application/json')
    .send(JSON.stringify(keyed.refusalBody(error, detail)));
}
