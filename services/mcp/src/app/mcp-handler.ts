import { RdeError, type Caller } from '@rde/platform';
import {
  createMcpHandler,
  isLegacyRequest,
  McpServer,
  WebStandardStreamableHTTPServerTransport,
  type AuthInfo,
  type CallToolResult,
  type McpHttpHandler,
  type StandardSchemaWithJSON,
} from '@modelcontextprotocol/server';
import type { ToolClients } from '../clients';
import { argumentCheck } from './arguments';
import { MCP_TOOLS } from './tools';

const SERVER_INFO = { name: 'rde', version: '2.0.0' };

type Arguments = Record<string, unknown>;

/**
 * Input schemas are compiled once: the per-request factory only registers them on a fresh server.
 * The SDK advertises each schema as given and lets every argument object through; the tool checks
 * it (argumentCheck) so a refusal is a tool error carrying the REST route's error body, not the
 * SDK's text-only message.
 */
const COMPILED = MCP_TOOLS.map((tool) => ({
  tool,
  inputSchema: advertised(tool.inputSchema),
  check: argumentCheck(tool.inputSchema, tool.refuse),
}));

function advertised(schema: Arguments): StandardSchemaWithJSON<Arguments, Arguments> {
  return {
    '~standard': {
      version: 1,
      vendor: 'rde',
      jsonSchema: { input: () => schema, output: () => schema },
      validate: (value) => ({ value: value as Arguments }),
    },
  };
}

/** The caller the gateway resolved, carried through the SDK as pass-through auth info. */
export function authInfoOf(caller: Caller): AuthInfo {
  return { token: '', clientId: caller.workspaceId, scopes: [], extra: { caller } };
}

/**
 * Builds the stateless MCP server for one request: a new McpServer bound to the caller, with the
 * module-scope tool catalog. Cheap by design (measured in test/bench/mcp.bench.ts).
 */
export function mcpServerFor(clients: ToolClients, caller: Caller): McpServer {
  // The tool list never changes while a client is connected, and there is no stream to announce it on.
  const server = new McpServer(SERVER_INFO, { capabilities: { tools: { listChanged: false } } });
  for (const { tool, inputSchema, check } of COMPILED) {
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description,
        inputSchema,
        annotations: { readOnlyHint: !tool.spends, openWorldHint: tool.spends },
      },
      (args) =>
        runTool(() => {
          check(args);
          return tool.run(clients, caller, args);
        }),
    );
  }
  return server;
}

/** Serves one exchange for a caller: a web Request (and its already parsed body) in, a web Response out. */
export interface McpEndpoint {
  serve(request: Request, parsedBody: unknown, caller: Caller): Promise<Response>;
  close(): Promise<void>;
}

/**
 * Streamable HTTP in single-response JSON mode, stateless (no Mcp-Session-Id): the 2026-07-28
 * revision through the SDK's per-request entry; 2025-era clients through a stateless transport of
 * their own, because the SDK's built-in legacy fallback answers with SSE, not JSON.
 */
export function createEndpoint(clients: ToolClients): McpEndpoint {
  const factory = ({ authInfo }: { authInfo?: AuthInfo }) =>
    mcpServerFor(clients, (authInfo?.extra as { caller: Caller }).caller);
  const modern: McpHttpHandler = createMcpHandler(factory, { responseMode: 'json', legacy: 'reject' });
  return {
    async serve(request, parsedBody, caller) {
      const authInfo = authInfoOf(caller);
      if (!(await isLegacyRequest(request, parsedBody))) return modern.fetch(request, { authInfo, parsedBody });
      const transport = new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: undefined,
        enableJsonResponse: true,
      });
      const server = factory({ authInfo });
      await server.connect(transport);
      try {
        return await transport.handleRequest(request, { authInfo, parsedBody });
      } finally {
        await server.close();
      }
    },
    close: () => modern.close(),
  };
}

/** A refusal (of the arguments or by a service) becomes an MCP tool error: the spec's error body and its status. */
async function runTool(run: () => Promise<Arguments>): Promise<CallToolResult> {
  try {
    const result = await run();
    // The REST body, `_meta` included, is the structured result; `_meta` also rides on the MCP result.
    const meta = result._meta as Record<string, unknown> | undefined;
    return {
      content: [{ type: 'text', text: JSON.stringify(result) }],
      structuredContent: result,
      ...(meta && { _meta: meta }),
    };
  } catch (error) {
    if (!(error instanceof RdeError)) throw error;
    const body = { status: error.httpStatus, ...(error.body as object) };
    return { isError: true, content: [{ type: 'text', text: JSON.stringify(body) }], structuredContent: body };
  }
}
