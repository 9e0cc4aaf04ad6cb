import type { FastifyRequest } from 'fastify';
import type { KeyedRequest } from '../../plugins/idempotency';

/** The `_meta` key of a `tools/call` that carries its idempotency key (the REST routes' `Idempotency-Key`). */
export const MCP_IDEMPOTENCY_META_KEY = 'io.rde/idempotency-key';

interface ToolCall {
  id?: unknown;
  method?: unknown;
  params?: { name?: unknown; arguments?: unknown; _meta?: Record<string, unknown> };
}

interface JsonRpcAnswer {
  id?: unknown;
  error?: unknown;
  result?: { isError?: boolean; structuredContent?: { status?: unknown } };
}

/**
 * A `tools/call` with `_meta["io.rde/idempotency-key"]` is keyed like a REST paid call: the tool and
 * its arguments are the request (the JSON-RPC id and the rest of `_meta` differ between retries), a
 * replay answers with the retry's own id, and refusals are JSON-RPC errors.
 */
export function mcpToolCallKey(request: FastifyRequest): KeyedRequest | undefined {
  const call = request.body as ToolCall | undefined;
  if (call?.method !== 'tools/call') return undefined;
  const key = call.params?._meta?.[MCP_IDEMPOTENCY_META_KEY];
  if (key === undefined) return undefined;
  return {
    key: typeof key === 'string' ? key : '',
    material: { name: call.params?.name, arguments: call.params?.arguments ?? {} },
    replayBody: (body) =>
      Buffer.from(JSON.stringify({ ...(JSON.parse(body.toString('utf8')) as object), id: call.id })),
    outcomeStatus,
    refusalBody: (error, detail) => ({
      jsonrpc: '2.0',
      id: call.id ?? null,
      error: { code: -32600, message: detail, data: { error } },
    }),
  };
}

/**
 * A tool's refusal rides in a 200 (`isError` with the REST status): it is what decides keeping. A
 * JSON-RPC error, or an answer that is not JSON, is not kept.
 */
function outcomeStatus(status: number, body: Buffer): number {
  if (status !== 200) return status;
  const answer = parsed(body);
  if (answer === undefined || answer.error !== undefined) return 400;
  const refused = answer.result?.isError === true ? answer.result.structuredContent?.status : undefined;
  return typeof refused === 'number' ? refused : status;
}

function parsed(body: Buffer): JsonRpcAnswer | undefined {
  try {
    return JSON.parse(body.toString('utf8')) as JsonRpcAnswer;
  } catch {
    return undefined;
  }
}
