import {
  classifyInboundRequest,
  CLIENT_CAPABILITIES_META_KEY,
  isJSONRPCRequest,
  isJsonContentType,
  parseJSONRPCMessage,
  PROTOCOL_VERSION_META_KEY,
  ProtocolErrorCode,
  SUPPORTED_PROTOCOL_VERSIONS,
  type MessageClassification,
  type AuthInfo,
  type JSONRPCMessage,
  type JSONRPCRequest,
  type Server,
} from '@modelcontextprotocol/server';
import { isJsonObject } from '../domain/json';
import { LegacyExchangeTransport, ModernExchangeTransport } from './exchange-transports';

/** One HTTP exchange as the gateway hands it over: header names lower-case, the body as sent and parsed (undefined when it is not JSON). */
export interface McpExchange {
  readonly method: string;
  readonly url: string;
  readonly headers: ReadonlyMap<string, string>;
  readonly body: Uint8Array;
  readonly parsedBody: unknown;
}

/** The HTTP answer to one exchange. */
export interface McpAnswer {
  readonly status: number;
  readonly headers: readonly (readonly [string, string])[];
  readonly body: Buffer;
}

/** The current revision (decision 0028). */
export const MODERN_REVISION = '2026-07-28';
/**
 * The SDK's 2025-era revisions and the current one, in the order the SDK entry lists them once it
 * serves a 2026-07-28 exchange: what the server declares, so that connecting it to a fast-path
 * transport binds it to the claimed revision as the entry does, and so the versions a 2025-era
 * client's MCP-Protocol-Version header may name (the SDK's transport takes the server's list).
 */
export const SERVED_REVISIONS = [...SUPPORTED_PROTOCOL_VERSIONS, MODERN_REVISION];
/** The methods every agent call is: listing the tools and calling one. */
const HOT_METHODS = new Set(['tools/list', 'tools/call']);
/** The envelope members the SDK's ladder requires before it validates the envelope's schema. */
const REQUIRED_ENVELOPE = [PROTOCOL_VERSION_META_KEY, CLIENT_CAPABILITIES_META_KEY];
const CLASSIFICATION: MessageClassification = { era: 'modern', revision: MODERN_REVISION };

/** A request the fast path may serve. */
export type HotRequest = JSONRPCRequest & { method: 'tools/list' | 'tools/call' };

/**
 * Serves a hot exchange of either era on the JSON fast path (decision 0038) with a server from the
 * factory, or returns undefined for the SDK's serving to answer it. The server and its transport
 * are dropped afterwards, not closed: closing would only build a connection-closed error (with its
 * stack) to reject nothing, the exchange being over.
 */
export async function serveFast(
  exchange: McpExchange,
  serverFor: () => Server,
  authInfo: AuthInfo,
): Promise<McpAnswer | undefined> {
  const modern = modernRoute(exchange);
  if (modern) return serveModern(serverFor(), modern, authInfo);
  const legacy = legacyRoute(exchange);
  return legacy && serveLegacy(serverFor(), legacy, authInfo);
}

/**
 * The 2026-07-28 exchanges on the fast path: a POSTed JSON-RPC `tools/list` or `tools/call` request
 * (by the SDK's own guard) claiming 2026-07-28 with the envelope's required members, whose standard
 * headers (MCP-Protocol-Version, Mcp-Method, Mcp-Name) repeat the body verbatim. Every rung of the SDK
 * entry's ladder lets such a request through (those methods require no client capability; the
 * header-declared-parameter and scope checks are `McpServer`'s), save the envelope's schema, which
 * the SDK's protocol layer checks again at dispatch (see `serveModern`). The test is narrower than the
 * SDK's, never wider: anything else goes to the SDK's entry, which owns those answers.
 */
export function modernRoute(exchange: McpExchange): HotRequest | undefined {
  const { headers, parsedBody } = exchange;
  if (exchange.method !== 'POST' || !isJsonContentType(headers.get('content-type'))) return undefined;
  // The SDK's own guard: the protocol layer takes nothing else as a request.
  if (!isJSONRPCRequest(parsedBody)) return undefined;
  const { method, params } = parsedBody;
  if (!HOT_METHODS.has(method) || !isJsonObject(params) || !isJsonObject(params._meta)) return undefined;
  const envelope = params._meta;
  if (envelope[PROTOCOL_VERSION_META_KEY] !== MODERN_REVISION || !REQUIRED_ENVELOPE.every((key) => key in envelope)) {
    return undefined;
  }
  if (headers.get('mcp-protocol-version') !== MODERN_REVISION || headers.get('mcp-method') !== method) return undefined;
  // tools/call names its tool in Mcp-Name, verbatim; tools/list carries none.
  const nameHeader = headers.get('mcp-name');
  const named =
    method === 'tools/call' ? typeof params.name === 'string' && nameHeader === params.name : nameHeader === undefined;
  return named ? (parsedBody as HotRequest) : undefined;
}

/**
 * The 2025-era exchanges on the fast path: a POSTed `tools/list` or `tools/call` that the SDK's own
 * classifier routes legacy (no envelope claim) and that the stateless JSON transport the endpoint
 * gives 2025-era clients (`WebStandardStreamableHTTPServerTransport`) would deliver untouched: the
 * client accepts JSON and event streams, the body is JSON by its content type and one request by
 * the SDK's own parser, and an MCP-Protocol-Version header, if sent, names a served revision. That
 * transport checks no session and no scope here (the endpoint configures neither). Anything else
 * goes to it, and it owns those answers.
 */
export function legacyRoute(exchange: McpExchange): HotRequest | undefined {
  const { headers, parsedBody } = exchange;
  if (exchange.method !== 'POST' || !isJsonObject(parsedBody)) return undefined;
  const accept = headers.get('accept');
  if (!accept?.includes('application/json') || !accept.includes('text/event-stream')) return undefined;
  if (!isJsonContentType(headers.get('content-type'))) return undefined;
  const protocolVersionHeader = headers.get('mcp-protocol-version');
  if (protocolVersionHeader !== undefined && !SERVED_REVISIONS.includes(protocolVersionHeader)) return undefined;
  const route = classifyInboundRequest({
    httpMethod: 'POST',
    protocolVersionHeader,
    mcpMethodHeader: headers.get('mcp-method'),
    mcpNameHeader: headers.get('mcp-name'),
    body: parsedBody,
  });
  // 'no-claim': the classifier found a JSON-RPC request (not `initialize`) without an envelope claim.
  if (route.kind !== 'legacy' || route.reason !== 'no-claim') return undefined;
  // What the transport delivers is the SDK parser's output, not the body as sent.
  const message = parsedMessage(parsedBody) as JSONRPCRequest | undefined;
  return message && HOT_METHODS.has(message.method) ? (message as HotRequest) : undefined;
}

function parsedMessage(body: unknown): JSONRPCMessage | undefined {
  try {
    return parseJSONRPCMessage(body);
  } catch {
    return undefined;
  }
}

/**
 * Serves a 2026-07-28 fast-path request on the SDK's `Server` (its dispatch, envelope, request and
 * result validation, and result encoding for the revision) and returns the JSON-RPC answer as the
 * SDK's entry would send it: 200 with the message, or 400 for the one in-band error the SDK maps to
 * a status. Returns undefined when the protocol layer refused the message before any handler ran (a
 * ladder rejection, such as an envelope its schema refuses): nothing has run, and the caller lets
 * the SDK's entry answer it.
 */
export async function serveModern(
  server: Server,
  request: HotRequest,
  authInfo: AuthInfo,
): Promise<McpAnswer | undefined> {
  const transport = new ModernExchangeTransport(CLASSIFICATION);
  await server.connect(transport);
  const outcome = await transport.exchange(request, authInfo);
  if (outcome.beforeDispatch) return undefined;
  const refusal = 'error' in outcome.message && outcome.message.error.code === MISSING_CAPABILITY;
  return jsonAnswer(refusal ? 400 : 200, outcome.message);
}

/** Serves a 2025-era fast-path request as the stateless JSON transport does: whatever the server answers, 200 with the message. */
export async function serveLegacy(server: Server, request: HotRequest, authInfo: AuthInfo): Promise<McpAnswer> {
  const transport = new LegacyExchangeTransport();
  await server.connect(transport);
  return jsonAnswer(200, (await transport.exchange(request, authInfo)).message);
}

function jsonAnswer(status: number, message: JSONRPCMessage): McpAnswer {
  return { status, headers: [['content-type', 'application/json']], body: Buffer.from(JSON.stringify(message)) };
}

/** The SDK entry answers a missing required client capability 400 even from a handler; every other handler error is 200 (its httpStatusForErrorCode). */
const MISSING_CAPABILITY = ProtocolErrorCode.MissingRequiredClientCapability;
