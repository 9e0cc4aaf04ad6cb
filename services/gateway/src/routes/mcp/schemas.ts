import { errorBody } from '../../contract';

/** A JSON-RPC message or batch: the MCP SDK in the mcp service validates its shape. */
export const jsonRpcBody = {
  anyOf: [{ type: 'object' }, { type: 'array' }],
  description: 'a JSON-RPC 2.0 request or notification (Streamable HTTP, single-response mode)',
} as const;

export const jsonRpcResponse = { type: 'object', additionalProperties: true } as const;

/** The MCP transport's JSON-RPC error answer (the SDK's; the gateway's refusal of a foreign Origin too). */
export const jsonRpcError = {
  type: 'object',
  properties: {
    jsonrpc: { type: 'string', enum: ['2.0'] },
    error: {
      type: 'object',
      properties: { code: { type: 'integer' }, message: { type: 'string' } },
      required: ['code', 'message'],
    },
    id: {},
  },
  required: ['jsonrpc', 'error'],
} as const;

/**
 * A 400 is either the gateway's own (malformed JSON: the spec's `detail` body) or the MCP
 * transport's JSON-RPC error for a message that is not valid JSON-RPC (e.g. `-32600`).
 */
export const badRequest = { anyOf: [errorBody, jsonRpcError] } as const;

/** GET and DELETE (spec: 405, no server-initiated streams and no sessions), with `Allow: POST`. */
export const methodNotAllowed = {
  ...errorBody,
  headers: { allow: { type: 'string', enum: ['POST'], description: 'the one method served: POST' } },
} as const;
