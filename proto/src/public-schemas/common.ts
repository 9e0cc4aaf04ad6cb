/** Limits and building blocks every public request schema shares. */

/** Page offsets and limits travel as int32 in gRPC: nothing larger reaches a service. */
export const INT32_MAX = 2_147_483_647;

/** A list's `offset`: bounded so no value past a protobuf int32 reaches a service. */
export const pageOffset = { type: 'integer', minimum: 0, maximum: INT32_MAX, default: 0 } as const;

/** The longest path parameter (an id, a tool or a method name): the router and every schema use it. */
export const PATH_PARAM_MAX_LENGTH = 200;

/**
 * How a JSON body is validated, wherever it arrives (a REST route, an MCP tool's arguments): taken
 * as sent (`"5"` is not a number), every problem reported at once, defaults filled in, unknown keys
 * never dropped silently. Route schemas carry OpenAPI annotations that ajv's strict mode refuses.
 */
export const BODY_VALIDATION = {
  coerceTypes: false,
  allErrors: true,
  useDefaults: true,
  removeAdditional: false,
  strict: false,
} as const;

/**
 * Any JSON object a client sends as data (a row, a tool payload). A `__proto__` key is refused
 * (the gateway's parser refuses it at every depth), so the schema says so.
 */
export function jsonObject(description?: string) {
  return {
    type: 'object',
    additionalProperties: true,
    propertyNames: { not: { const: '__proto__' } },
    ...(description && { description }),
  } as const;
}

/**
 * A `ses_` session id, or empty for none. A value that does not match is the spec's 400
 * `invalid_session_id` (refusals.ts), not a 422, wherever a `session_id` property uses this schema.
 */
export const sessionId = {
  type: 'string',
  pattern: '^(ses_[A-Za-z0-9_-]+)?$',
  maxLength: PATH_PARAM_MAX_LENGTH,
  description: 'a `ses_` id',
} as const;

/** A path parameter schema bounded by the router's limit. */
export function pathParam(extra: Record<string, unknown> = {}) {
  return { type: 'string', minLength: 1, maxLength: PATH_PARAM_MAX_LENGTH, ...extra } as const;
}
