import { RdeError, type Caller } from '@rde/platform';
import {
  createMcpHandler,
  isLegacyRequest,
  McpServer,
  PROTOCOL_VERSION_META_KEY,
  ProtocolError,
  ProtocolErrorCode,
  Server,
  WebStandardStreamableHTTPServerTransport,
  type AuthInfo,
  type CallToolResult,
  type ListToolsResult,
  type McpHttpHandler,
  type Tool,
} from '@modelcontextprotocol/server';
import type { ToolClients } from '../clients';
import { isJsonObject } from '../domain/json';
import { argumentCheck } from './arguments';
import type { SkillResources } from './skill-resources';
import { SERVED_REVISIONS, serveFast, type McpAnswer, type McpExchange } from './json-exchange';
import { MCP_TOOLS } from './tools';

const SERVER_INFO = { name: 'rde', version: '2.0.0' };

type Arguments = Record<string, unknown>;

/**
 * The catalog, built once at module scope: each tool with its argument check compiled, and the
 * `tools/list` answer (each schema exactly the REST route's, decision 0037). The per-request factory
 * only binds two handlers to a fresh low-level `Server`: registering every tool on an `McpServer`
 * per request cost more than the rest of the exchange (decision 0038).
 */
const TOOLS = new Map(
  MCP_TOOLS.map((tool) => [tool.name, { tool, check: argumentCheck(tool.inputSchema, tool.refuse) }]),
);
const LISTED: ListToolsResult = {
  tools: MCP_TOOLS.map((tool) => ({
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: tool.inputSchema as Tool['inputSchema'],
    annotations: { readOnlyHint: !(tool.spends || tool.writes), openWorldHint: tool.spends },
  })),
};

/** What the gateway resolved: the caller, and the call id of a keyed `tools/call` ('' when none). */
interface Passed {
  readonly caller: Caller;
  readonly callId: string;
}

/** The caller (and call id) the gateway resolved, carried through the SDK as pass-through auth info. */
export function authInfoOf(caller: Caller, callId = ''): AuthInfo {
  const extra: Passed = { caller, callId };
  return { token: '', clientId: caller.workspaceId, scopes: [], extra: { ...extra } };
}

/**
 * The stateless MCP server of a hot exchange (`tools/list`, `tools/call` on the JSON fast path), bound
 * to the caller: the tools only. Cheap by design (measured in test/bench/mcp.bench.ts).
 */
export function mcpServerFor(clients: ToolClients, caller: Caller, callId = ''): Server {
  const server = new Server(SERVER_INFO, { capabilities: {}, supportedProtocolVersions: SERVED_REVISIONS });
  serveTools(server, clients, { caller, callId });
  return server;
}

/**
 * The server of every other exchange (initialize, discovery, resources, skills): the tools and the
 * skills as resources (decision 0080). The resource list never changes while a client is connected,
 * and there is no stream to announce it on.
 */
export function fullMcpServerFor(clients: ToolClients, skills: SkillResources, caller: Caller, callId = ''): McpServer {
  const mcp = new McpServer(SERVER_INFO, {
    capabilities: { resources: { listChanged: false } },
    supportedProtocolVersions: SERVED_REVISIONS,
  });
  serveTools(mcp.server, clients, { caller, callId });
  skills.attach(mcp, caller);
  return mcp;
}

/**
 * Binds `tools/list` and `tools/call` to the catalog above. An unknown tool is a JSON-RPC
 * invalid-params error, as the SDK's `McpServer` answers it; a refusal of the arguments or by a
 * service is a tool error.
 */
function serveTools(server: Server, clients: ToolClients, { caller, callId }: Passed): void {
  // The tool list never changes while a client is connected, and there is no stream to announce it on.
  server.registerCapabilities({ tools: { listChanged: false } });
  server.setRequestHandler('tools/list', () => LISTED);
  server.setRequestHandler('tools/call', async ({ params }) => {
    const entry = TOOLS.get(params.name);
    if (!entry) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Tool ${params.name} not found`);
    const args = params.arguments ?? {};
    const result = await runTool(() => {
      entry.check(args);
      return entry.tool.run(clients, caller, args, callId);
    });
    return server.projectCallToolResult(result, undefined);
  });
}

/** Serves one exchange for a caller. */
export interface McpEndpoint {
  /** `callId`: the run id of a keyed `tools/call`, which its paid call carries ('' when none). */
  serve(exchange: McpExchange, caller: Caller, callId?: string): Promise<McpAnswer>;
  close(): Promise<void>;
}

/**
 * Streamable HTTP in single-response JSON mode, stateless (no Mcp-Session-Id). A well-formed
 * tools/list or tools/call of either era takes the JSON fast path (decision 0038); every other
 * exchange goes, with the full server (tools and skill resources), to the SDK's serving as a web
 * Request: the per-request entry, and for 2025-era
 * clients a stateless transport of their own, because the SDK's built-in legacy fallback answers
 * with SSE, not JSON.
 */
export function createEndpoint(clients: ToolClients, skills: SkillResources): McpEndpoint {
  const factory = ({ authInfo }: { authInfo?: AuthInfo }) => {
    const { caller, callId } = authInfo?.extra as unknown as Passed;
    return fullMcpServerFor(clients, skills, caller, callId);
  };
  const modern: McpHttpHandler = withoutConsoleWarnings(() =>
    createMcpHandler(factory, { responseMode: 'json', legacy: 'reject' }),
  );
  const viaSdk = async (request: Request, parsedBody: unknown, authInfo: AuthInfo): Promise<Response> => {
    if (claimsModernEnvelope(request, parsedBody) || !(await isLegacyRequest(request, parsedBody))) {
      return modern.fetch(request, { authInfo, parsedBody });
    }
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
  };
  return {
    async serve(exchange, caller, callId = '') {
      const refused = notAcceptable(exchange) ?? batchRefusal(exchange);
      if (refused) return refused;
      const authInfo = authInfoOf(caller, callId);
      const fast = await serveFast(exchange, () => mcpServerFor(clients, caller, callId), authInfo);
      return fast ?? answerOf(await viaSdk(webRequestOf(exchange), exchange.parsedBody, authInfo));
    },
    close: () => modern.close(),
  };
}

/**
 * An `Accept` that rules JSON out, in either era: this server answers only JSON (no streams), so a
 * client that takes event streams alone cannot read any answer (decision 0056). The SDK's 2025-era
 * transport already refuses it; its 2026-07-28 handler would send JSON anyway. No `Accept` is served.
 */
function notAcceptable({ headers }: McpExchange): McpAnswer | undefined {
  const accept = headers.get('accept');
  if (accept === undefined || /application\/json|application\/\*|\*\/\*/.test(accept)) return undefined;
  return jsonRpcRefusal(406, -32000, 'Not Acceptable: this server answers application/json only');
}

/** The last revision whose transport took JSON-RPC batches: 2025-06-18 removed them. */
const LAST_BATCHING_REVISION = '2025-03-26';

/**
 * A batch from a client that negotiated 2025-06-18 or later: the transport's answer to a body that
 * is not one message, 400 with an Invalid Request error and no id. The SDK's 2025-era transport
 * still reads batches, so this is refused here (decision 0056); a 2025-03-26 client's batch is served.
 */
function batchRefusal({ headers, parsedBody }: McpExchange): McpAnswer | undefined {
  const revision = headers.get('mcp-protocol-version');
  if (!Array.isArray(parsedBody) || revision === undefined || revision === LAST_BATCHING_REVISION) return undefined;
  const message = `JSON-RPC batches were removed in 2025-06-18; at ${revision} send one message per request`;
  return jsonRpcRefusal(400, ProtocolErrorCode.InvalidRequest, message);
}

/** The transport's refusal of an exchange: a JSON-RPC error without an id. */
function jsonRpcRefusal(status: number, code: number, message: string): McpAnswer {
  const body = { jsonrpc: '2.0', error: { code, message }, id: null };
  return { status, headers: [['content-type', 'application/json']], body: Buffer.from(JSON.stringify(body)) };
}

/** The exchange as the SDK's entry reads it: the parsed body rides beside it; only bytes that did not parse are attached, for the SDK to answer its parse error. */
function webRequestOf({ method, url, headers, body, parsedBody }: McpExchange): Request {
  const unparsed = method === 'POST' && parsedBody === undefined;
  return new Request(url, { method, headers: [...headers], body: unparsed ? body : undefined });
}

async function answerOf(response: Response): Promise<McpAnswer> {
  return {
    status: response.status,
    headers: [...response.headers],
    body: Buffer.from(await response.arrayBuffer()),
  };
}

/**
 * Whether a request certainly takes the SDK's modern path: a POSTed JSON-RPC request or notification
 * (neither a response nor `initialize`) whose params carry the envelope's protocol-version claim.
 * The SDK classifies such a message modern (or answers it from the modern ladder) whatever the rest
 * of the envelope says; skipping `isLegacyRequest` for it spares a second classification of the
 * body, since `createMcpHandler` classifies it again (decision 0038). Anything else is left to
 * `isLegacyRequest`, so the routing never disagrees with the SDK's.
 */
export function claimsModernEnvelope(request: Request, body: unknown): boolean {
  if (request.method !== 'POST' || !isJsonObject(body) || 'result' in body || 'error' in body) return false;
  if (body.method === 'initialize' || !isJsonObject(body.params)) return false;
  const meta = body.params._meta;
  return isJsonObject(meta) && PROTOCOL_VERSION_META_KEY in meta;
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

/**
 * Runs `build` with console.warn silenced: the SDK warns, on every construction, that JSON mode
 * drops mid-call notifications, a choice made here on purpose (decision 0038); a plain-text line
 * would break the process's JSON log stream.
 */
function withoutConsoleWarnings<T>(build: () => T): T {
  const warn = console.warn;
  console.warn = () => undefined;
  try {
    return build();
  } finally {
    console.warn = warn;
  }
}
