import { Agent, errors as undiciErrors, request } from 'undici';
import type { JsonObject } from '../domain/parameters';
import { isObject } from '../domain/rows';
import { ProviderFailure, type ProviderCaller } from './caller';
import type { MethodDeclaration, ProviderDeclaration } from './declaration';

export interface RestJsonOptions {
  /** Where a vendor lives (its declaration's configuration; the sandbox in development and tests). */
  readonly baseUrlOf: (provider: ProviderDeclaration) => string;
  readonly apiKeyOf: (provider: ProviderDeclaration) => string;
  readonly timeoutMs: number;
  /** Sockets per vendor origin. */
  readonly connections: number;
}

/** Vendor answers above this size are refused rather than buffered. */
const MAX_ANSWER_BYTES = 20 * 1024 * 1024;

/**
 * The wire protocol every vendor here speaks: REST, the key in a header, parameters in the path,
 * the query string (GET) or a JSON body (POST), JSON answers. Calls go over one pooled, keep-alive
 * undici Agent with timeouts on connecting, on the answer's headers and between body chunks, so a
 * stuck vendor fails the call instead of holding it.
 */
export class RestJsonProviders implements ProviderCaller {
  private readonly agent: Agent;
  /** Each vendor's base URL, resolved on its first call: configuration and addresses do not change. */
  private readonly baseUrls = new Map<ProviderDeclaration, string>();

  constructor(private readonly options: RestJsonOptions) {
    this.agent = new Agent({
      connections: options.connections,
      connect: { timeout: options.timeoutMs },
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
      maxResponseSize: MAX_ANSWER_BYTES,
    });
  }

  async call(provider: ProviderDeclaration, method: MethodDeclaration, values: JsonObject): Promise<JsonObject> {
    const { auth } = provider;
    const key = this.options.apiKeyOf(provider);
    const wire = placeParameters(method, values);
    const url = new URL(`${this.baseUrlOf(provider)}${wire.path}`);
    for (const [name, value] of wire.query) url.searchParams.append(name, value);
    let status: number;
    let body: unknown;
    let retryAfter: string | string[] | undefined;
    try {
      const response = await request(url, {
        dispatcher: this.agent,
        method: method.http,
        headers: {
          accept: 'application/json',
          [auth.header]: auth.scheme ? `${auth.scheme} ${key}` : key,
          ...(wire.body !== undefined && { 'content-type': 'application/json' }),
        },
        body: wire.body === undefined ? undefined : JSON.stringify(wire.body),
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
      status = response.statusCode;
      retryAfter = response.headers['retry-after'];
      const text = await response.body.text();
      body = text ? JSON.parse(text) : {};
    } catch (error) {
      throw transportFailure(provider, error);
    }
    if (status === 404 && method.missOn404) return isObject(body) ? body : {};
    if (status === 429) throw rateLimited(provider, retryAfter);
    return answerOf(provider, status, body);
  }

  close(): Promise<void> {
    return this.agent.close();
  }

  private baseUrlOf(provider: ProviderDeclaration): string {
    const known = this.baseUrls.get(provider);
    if (known !== undefined) return known;
    const resolved = this.options.baseUrlOf(provider).replace(/\/$/, '');
    this.baseUrls.set(provider, resolved);
    return resolved;
  }
}

interface PlacedParameters {
  readonly path: string;
  readonly query: [string, string][];
  readonly body?: JsonObject;
}

/** `:name` path segments take their parameter; the rest go in the query string (GET) or the JSON body. */
function placeParameters(method: MethodDeclaration, values: JsonObject): PlacedParameters {
  const rest: JsonObject = { ...values };
  const path = method.path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, (_match, name: string) => {
    const value = rest[name];
    delete rest[name];
    return encodeURIComponent(String(value));
  });
  if (method.http === 'POST') return { path, query: [], body: rest };
  const query = Object.entries(rest).flatMap(([name, value]): [string, string][] =>
    (Array.isArray(value) ? value : [value]).map((item) => [
      name,
      typeof item === 'object' ? JSON.stringify(item) : String(item),
    ]),
  );
  return { path, query };
}

/** 2xx answers; a vendor's 400 or 422 is its verdict on the request; anything else is its failure. */
function answerOf(provider: ProviderDeclaration, status: number, body: unknown): JsonObject {
  const name = provider.tool;
  if (status === 400 || status === 422) {
    throw new ProviderFailure('rejected', `${name} refused the request: ${vendorMessage(body) ?? `HTTP ${status}`}`);
  }
  if (status === 401 || status === 403)
    throw new ProviderFailure('credentials_refused', `${name} refused the service's credentials`);
  if (status < 200 || status >= 300) throw new ProviderFailure(`http_${status}`, `${name} answered HTTP ${status}`);
  if (!isObject(body)) throw new ProviderFailure('bad_response', `${name} answered something other than a JSON object`);
  return body;
}

/** A 429, with the vendor's Retry-After (seconds) when it sent one. */
function rateLimited(provider: ProviderDeclaration, retryAfter: string | string[] | undefined): ProviderFailure {
  const seconds = Number(Array.isArray(retryAfter) ? retryAfter[0] : retryAfter);
  const waitMs = Number.isFinite(seconds) && seconds >= 0 ? Math.round(seconds * 1000) : undefined;
  return new ProviderFailure('rate_limited', `${provider.tool} is rate-limiting calls`, waitMs);
}

const MESSAGE_KEYS = ['message', 'detail', 'details', 'reason', 'error'];

/** The human message in a vendor's error body, wherever its shape keeps it (`error.message`, `errors[0].detail`…). */
function vendorMessage(body: unknown): string | undefined {
  const candidates = isObject(body) ? [body, body.error, Array.isArray(body.errors) ? body.errors[0] : undefined] : [];
  for (const candidate of candidates) {
    if (!isObject(candidate)) continue;
    const message = MESSAGE_KEYS.map((key) => candidate[key]).find((value) => typeof value === 'string');
    if (message) return message as string;
  }
  return undefined;
}

function transportFailure(provider: ProviderDeclaration, error: unknown): ProviderFailure {
  if (error instanceof SyntaxError)
    return new ProviderFailure('bad_response', `${provider.tool} answered with invalid JSON`);
  const timedOut =
    error instanceof undiciErrors.HeadersTimeoutError ||
    error instanceof undiciErrors.BodyTimeoutError ||
    error instanceof undiciErrors.ConnectTimeoutError ||
    (error instanceof DOMException && error.name === 'TimeoutError');
  if (timedOut) return new ProviderFailure('timeout', `${provider.tool} did not answer in time`);
  return new ProviderFailure('unreachable', `${provider.tool} could not be reached`);
}
