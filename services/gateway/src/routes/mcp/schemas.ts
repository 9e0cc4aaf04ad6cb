/** A JSON-RPC message or batch: the MCP SDK in the mcp service validates its shape. */
export const jsonRpcBody = {
  anyOf: [{ type: 'object' }, { type: 'array' }],
  description: 'a JSON-RPC 2.0 request or notification (Streamable HTTP, single-response mode)',
} as const;

export const jsonRpcResponse = { type: 'object', additionalProperties: true } as const;

/** RFC 6750 §3: the error code and a description (the challenge itself is in WWW-Authenticate). */
export const bearerError = {
  type: 'object',
  required: ['error'],
  properties: { error: { type: 'string' }, error_description: { type: 'string' } },
} as const;

export const methodNotAllowed = {
  type: 'object',
  required: ['detail'],
  properties: { detail: { type: 'string' } },
} as const;

export const errorBody = { type: 'object', additionalProperties: true } as const;
