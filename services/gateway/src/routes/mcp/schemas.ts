/** A JSON-RPC message or batch: the MCP SDK in the mcp service validates its shape. */
export const jsonRpcBody = {
  anyOf: [{ type: 'object' }, { type: 'array' }],
  description: 'a JSON-RPC 2.0 request or notification (Streamable HTTP, single-response mode)',
} as const;

export const jsonRpcResponse = { type: 'object', additionalProperties: true } as const;
