import type { FastifyInstance, FastifySchema, RouteOptions } from 'fastify';
import { publicSchemas } from '@rde/proto';

/**
 * The gateway's side of the public contract that every route shares: the limits on what a request
 * may carry and the error statuses a route can answer. Declared here once so that /openapi.json
 * lists them for every route, including routes added later, and the router enforces the same numbers.
 */

/** The largest JSON body a route accepts unless it declares its own `bodyLimit`. */
export const BODY_LIMIT_BYTES = 1024 * 1024;
/** How deeply a JSON body may nest objects and arrays; deeper bodies are refused while parsing. */
export const BODY_MAX_DEPTH = 64;

/** A list route's answer: one page of `items` under `key`, with the page's offset and limit and the total. */
export function pageSchema<const Key extends string, const Item>(key: Key, items: Item) {
  return {
    type: 'object',
    properties: {
      [key]: { type: 'array', items },
      offset: { type: 'integer' },
      limit: { type: 'integer' },
      total: { type: 'integer' },
    },
    required: [key, 'offset', 'limit', 'total'],
  } as const;
}

/** The request schemas' building blocks, shared with the mcp service's tools (decision 0037). */
export const { PATH_PARAM_MAX_LENGTH, INT32_MAX, jsonObject, pageOffset, sessionId, pathParam } = publicSchemas;

/** A route's params schema with the one path parameter `name`, bounded like every path parameter. */
export function pathParamsSchema<const Name extends string>(name: Name, extra?: Record<string, unknown>) {
  return { type: 'object', properties: { [name]: pathParam(extra) }, required: [name] } as const;
}

/** An object whose properties are all always present (null where the spec allows it). */
export function allRequired<const P extends Record<string, object>>(properties: P) {
  return { type: 'object', properties, required: Object.keys(properties) as (keyof P & string)[] } as const;
}

/** A request body of exactly these fields, all required: an unknown field is refused (422). */
export function strictBody<const P extends Record<string, object>>(properties: P) {
  return { ...allRequired(properties), additionalProperties: false } as const;
}

/** An acknowledgement: `{ok: true}` followed by these fields, all present. */
export function okResult<const P extends Record<string, object>>(properties: P) {
  return allRequired({ ok: { type: 'boolean', const: true }, ...properties } as const);
}

/** One item of a 422's `detail` list (the spec's standard validation error). */
export const validationIssue = allRequired({
  loc: { type: 'array', items: { type: ['string', 'integer'] } },
  msg: { type: 'string' },
  type: { type: 'string' },
});

/** A delete's answer: `{ok: true, deleted: <id>}`. */
export const deletedBody = okResult({ deleted: { type: 'string' } });

/** The spec's error body: `detail` is a message, the validation list, or a structured reason. */
export const errorBody = {
  type: 'object',
  description: 'an error: `detail` (a message, a structured reason, or the validation list of a 422)',
  properties: {
    detail: {
      anyOf: [
        { type: 'string' },
        { type: 'object', additionalProperties: true },
        { type: 'array', items: validationIssue },
      ],
    },
    error: { type: 'string', description: 'a machine-readable code, where the spec names one' },
  },
  additionalProperties: true,
} as const;

/** Response declarations for the given error statuses, each with the error body. */
export function errorResponses(...statuses: number[]): Record<number, typeof errorBody> {
  return Object.fromEntries(statuses.map((status) => [status, errorBody]));
}

/** The route schema with the @fastify/swagger annotations this module reads. */
type RouteSchema = FastifySchema & { response?: Record<string | number, unknown>; hide?: boolean };

/**
 * The statuses any route can answer beyond its own: 401 without a valid bearer (protected routes),
 * 422 when it takes input, 404 for path parameters (an unknown id), 400/413/415 for a body (malformed JSON or a `__proto__` key; too large; not JSON),
 * 431 for headers (the URL with its query included) over the server's limit, and
 * 500/503/504 when a service behind it fails, is down or does not answer in time.
 */
function sharedStatuses(route: RouteOptions, schema: RouteSchema): number[] {
  const statuses = [431, 500];
  if (!route.config?.public) statuses.push(401, 503, 504);
  if (schema.body || schema.querystring || schema.params) statuses.push(422);
  if (schema.params) statuses.push(404);
  if (schema.body || takesBody(route)) statuses.push(400, 413, 415);
  return statuses;
}

/** Whether the route's method carries a body the parser reads, declared by the route or not. */
function takesBody(route: RouteOptions): boolean {
  const methods = Array.isArray(route.method) ? route.method : [route.method];
  return methods.some((method) => ['POST', 'PUT', 'PATCH'].includes(method.toUpperCase()));
}

/**
 * Adds the shared error statuses to every route's schema (a route's own declaration of a status
 * wins), and marks public routes as needing no bearer in the OpenAPI document.
 */
export function registerContract(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    const schema = (route.schema ?? {}) as RouteSchema;
    if (schema.hide) return;
    const response = { ...errorResponses(...sharedStatuses(route, schema)), ...schema.response };
    route.schema = { ...schema, response, ...(route.config?.public && { security: [] }) };
  });
}
