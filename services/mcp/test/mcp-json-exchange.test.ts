import {
  createMcpHandler,
  inputRequired,
  PROTOCOL_VERSION_META_KEY,
  Server,
  WebStandardStreamableHTTPServerTransport,
} from '@modelcontextprotocol/server';
import { createLogger, errors, type Caller } from '@rde/platform';
import type { ToolClients } from '../src/clients';
import {
  legacyRoute,
  modernRoute,
  MODERN_REVISION,
  serveLegacy,
  serveModern,
  type McpAnswer,
  type McpExchange,
} from '../src/app/json-exchange';
import { authInfoOf, createEndpoint, fullMcpServerFor, mcpServerFor } from '../src/app/mcp-handler';
import { createSkillResources } from '../src/app/skill-resources';

const URL = 'http://127.0.0.1/api/v2/mcp';
const CALLER = { workspaceId: 'ws_json', userId: 'usr_json', requestId: 'req_json' } as Caller;
const ENVELOPE = {
  [PROTOCOL_VERSION_META_KEY]: MODERN_REVISION,
  'io.modelcontextprotocol/clientInfo': { name: 'test', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};
const PAID = { tool: 'pplgraph', method: 'search', payload: { query: 'ada' } };

/** The catalog as the tools see it: a charged search, a refusal for a call without credits, an empty listing. */
const clients = {
  catalog: {
    listTools: async () => ({ tools: [] }),
    callTool: async ({ tool }: { tool: string }) => {
      if (tool === 'broke')
        throw errors.paymentRequired({ detail: 'Insufficient credits', code: 'insufficient_credits' });
      return {
        resultJson: Buffer.from(JSON.stringify({ data: [{ full_name: 'Ada Strong' }] })),
        meta: { creditsCharged: { millicredits: 1000 }, runId: 'run_json', settled: false },
      };
    },
  },
} as unknown as ToolClients;

type Body = Record<string, unknown>;
const call = (name: unknown, args: unknown = {}, id: unknown = 1): Body => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: args, _meta: ENVELOPE },
});
const list: Body = { jsonrpc: '2.0', id: 'l-1', method: 'tools/list', params: { _meta: ENVELOPE } };
const headersFor = (body: Body, extra: Record<string, string | undefined> = {}) => {
  const params = body.params as Body;
  const all: Record<string, string | undefined> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': MODERN_REVISION,
    'mcp-method': body.method as string,
    ...(body.method === 'tools/call' && typeof params.name === 'string' && { 'mcp-name': params.name }),
    ...extra,
  };
  return Object.entries(all).filter((entry): entry is [string, string] => entry[1] !== undefined);
};
const exchangeOf = (body: Body, headers: [string, string][]): McpExchange => ({
  method: 'POST',
  url: URL,
  headers: new Map(headers),
  body: Buffer.from(JSON.stringify(body)),
  parsedBody: JSON.parse(JSON.stringify(body)),
});

/** The SDK's own entry, serving the same tools: what every answer must equal. */
const skills = createSkillResources(clients, createLogger('test', 'silent'));
/** The SDK's serving of every exchange off the fast path: the full server (tools and skill resources). */
const fullServer = () => fullMcpServerFor(clients, skills, CALLER);
const reference = createMcpHandler(fullServer, { responseMode: 'json', legacy: 'reject' });
const endpoint = createEndpoint(clients, skills);
afterAll(async () => Promise.all([reference.close(), endpoint.close()]));

async function sdkAnswer(body: Body, headers: [string, string][]) {
  const request = new Request(URL, { method: 'POST', headers, body: JSON.stringify(body) });
  return responseOf(await reference.fetch(request, { authInfo: authInfoOf(CALLER) }));
}

/** An answer as a client reads it; a 202 has no body. */
async function responseOf(response: Response) {
  const text = await response.text();
  return { status: response.status, type: response.headers.get('content-type'), body: text ? JSON.parse(text) : null };
}

/** The fast path's own answer, or undefined when it hands the exchange to the SDK entry. */
async function fastAnswer(body: Body, headers: [string, string][]) {
  const request = modernRoute(exchangeOf(body, headers));
  const answer = request && (await serveModern(mcpServerFor(clients, CALLER), request, authInfoOf(CALLER)));
  return answer && readable(answer);
}

async function endpointAnswer(body: Body, headers: [string, string][]) {
  return readable(await endpoint.serve(exchangeOf(body, headers), CALLER));
}

function readable(answer: McpAnswer) {
  const type = answer.headers.find(([name]) => name.toLowerCase() === 'content-type')?.[1] ?? null;
  const text = answer.body.toString('utf8');
  return { status: answer.status, type, body: text ? JSON.parse(text) : null };
}

/**
 * The JSON fast path (decision 0038) serves the hot exchanges on the SDK's Server without its web
 * Request/Response; each answer is held against the SDK entry's answer to the same request, so the
 * fast path cannot drift from the SDK's wire (statuses, errors, result encoding).
 */
describe('the JSON fast path answers exactly as the SDK entry does', () => {
  test.each([
    ['tools/list', list],
    ['a free tools/call', call('list_tools')],
    ['a paid tools/call', call('call_tool_method', PAID)],
    [
      'a tools/call a service refuses (a tool error with the spec body)',
      call('call_tool_method', { ...PAID, tool: 'broke' }),
    ],
    ['a tools/call with arguments its schema refuses', call('call_tool_method', { method: 'search' })],
    ['a tools/call of a tool that does not exist', call('no_such_tool')],
    ['a tools/call whose arguments are not an object', call('call_tool_method', 'search')],
    ['a tools/call with a string id', call('list_tools', {}, 'call-7')],
  ])('%s is served fast, with the SDK answer', async (_name, body) => {
    const headers = headersFor(body);
    const sdk = await sdkAnswer(body, headers);
    expect(await fastAnswer(body, headers)).toEqual(sdk);
    expect(await endpointAnswer(body, headers)).toEqual(sdk);
  });

  test.each([
    ['no Mcp-Name header', call('list_tools'), { 'mcp-name': undefined }],
    ['an Mcp-Name header naming another tool', call('list_tools'), { 'mcp-name': 'call_tool_method' }],
    ['an Mcp-Method header naming another method', call('list_tools'), { 'mcp-method': 'tools/list' }],
    ['no MCP-Protocol-Version header', list, { 'mcp-protocol-version': undefined }],
    [
      'an envelope with a malformed client identity',
      { ...list, params: { _meta: { ...ENVELOPE, 'io.modelcontextprotocol/clientInfo': 7 } } },
      {},
    ],
    [
      'an envelope naming a revision RDE does not serve',
      { ...list, params: { _meta: { ...ENVELOPE, [PROTOCOL_VERSION_META_KEY]: '2099-01-01' } } },
      { 'mcp-protocol-version': '2099-01-01' },
    ],
    [
      'an envelope without the client capabilities',
      { ...list, params: { _meta: { ...ENVELOPE, 'io.modelcontextprotocol/clientCapabilities': undefined } } },
      {},
    ],
    [
      'an envelope whose capabilities are not an object',
      { ...list, params: { _meta: { ...ENVELOPE, 'io.modelcontextprotocol/clientCapabilities': 'all' } } },
      {},
    ],
    ['a request with a member JSON-RPC does not define', { ...list, extra: true }, {}],
    ['a request whose id is not an integer', { ...list, id: 1.5 }, {}],
    [
      'a request with a malformed progress token',
      { ...list, params: { _meta: { ...ENVELOPE, progressToken: {} } } },
      {},
    ],
    ['a body that is not JSON by its content type', list, { 'content-type': 'text/plain' }],
    [
      'another method',
      { jsonrpc: '2.0', id: 3, method: 'ping', params: { _meta: ENVELOPE } },
      { 'mcp-method': 'ping' },
    ],
  ])('%s is left to the SDK entry, which answers it', async (_name, body, extra) => {
    const headers = headersFor(body, extra);
    expect(await fastAnswer(body, headers)).toBeUndefined();
    expect(await endpointAnswer(body, headers)).toEqual(await sdkAnswer(body, headers));
  });

  test('a refusal by the protocol layer before any handler runs is handed back for the SDK entry to answer', async () => {
    const bare = new Server({ name: 'bare', version: '1' }, { capabilities: { tools: {} } });
    const request = modernRoute(exchangeOf(list, headersFor(list)))!;
    expect(await serveModern(bare, request, authInfoOf(CALLER))).toBeUndefined();
  });

  test('a handler asking the client for a capability it did not declare is 400, as the SDK entry answers it', async () => {
    // RDE's tools never ask for input; this server's one tool asks for the client's roots.
    const asking = () => {
      const server = new Server(
        { name: 'asking', version: '1' },
        { capabilities: { tools: {} }, supportedProtocolVersions: [MODERN_REVISION] },
      );
      server.setRequestHandler('tools/call', () =>
        inputRequired({ inputRequests: { roots: inputRequired.listRoots() } }),
      );
      return server;
    };
    const body = call('list_tools');
    const headers = headersFor(body);
    const entry = createMcpHandler(asking, { responseMode: 'json', legacy: 'reject' });
    const request = new Request(URL, { method: 'POST', headers, body: JSON.stringify(body) });
    const response = await entry.fetch(request, { authInfo: authInfoOf(CALLER) });
    const sdk = await responseOf(response);
    await entry.close();
    const answer = await serveModern(asking(), modernRoute(exchangeOf(body, headers))!, authInfoOf(CALLER));
    expect(sdk.status).toBe(400);
    expect(readable(answer!)).toEqual(sdk);
  });
});

const LEGACY_REVISION = '2025-06-18';
const legacyCall = (name: unknown, args: unknown = {}, id: unknown = 1): Body => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: args },
});
const legacyList: Body = { jsonrpc: '2.0', id: 'l-1', method: 'tools/list', params: {} };
const legacyHeaders = (extra: Record<string, string | undefined> = {}) =>
  Object.entries({
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': LEGACY_REVISION,
    ...extra,
  }).filter((entry): entry is [string, string] => entry[1] !== undefined);

/** What a 2025-era client gets from the SDK's stateless JSON transport, serving the same tools. */
async function legacySdkAnswer(body: unknown, headers: [string, string][]) {
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  const server = fullServer();
  await server.connect(transport);
  const request = new Request(URL, { method: 'POST', headers, body: JSON.stringify(body) });
  const response = await transport.handleRequest(request, { authInfo: authInfoOf(CALLER) });
  await server.close();
  return responseOf(response);
}

async function legacyFastAnswer(body: Body, headers: [string, string][]) {
  const request = legacyRoute(exchangeOf(body, headers));
  return request && readable(await serveLegacy(mcpServerFor(clients, CALLER), request, authInfoOf(CALLER)));
}

/** 2025-era clients take the fast path too, held against the SDK's stateless transport the endpoint gives them otherwise. */
describe('the JSON fast path answers 2025-era clients exactly as the SDK transport does', () => {
  test.each([
    ['tools/list', legacyList, {}],
    ['a free tools/call', legacyCall('list_tools'), {}],
    ['a paid tools/call', legacyCall('call_tool_method', PAID), {}],
    ['a tools/call a service refuses', legacyCall('call_tool_method', { ...PAID, tool: 'broke' }), {}],
    ['a tools/call with arguments its schema refuses', legacyCall('call_tool_method', { method: 'search' }), {}],
    ['a tools/call of a tool that does not exist', legacyCall('no_such_tool'), {}],
    ['a tools/call whose arguments are not an object', legacyCall('call_tool_method', 'search'), {}],
    ['a tools/call with a string id', legacyCall('list_tools', {}, 'call-7'), {}],
    ['a request without an MCP-Protocol-Version header', legacyList, { 'mcp-protocol-version': undefined }],
    ['a 2025-11-25 client', legacyCall('list_tools'), { 'mcp-protocol-version': '2025-11-25' }],
  ])('%s is served fast, with the SDK answer', async (_name, body, extra) => {
    const headers = legacyHeaders(extra);
    const sdk = await legacySdkAnswer(body, headers);
    expect(await legacyFastAnswer(body, headers)).toEqual(sdk);
    expect(await endpointAnswer(body, headers)).toEqual(sdk);
  });

  test.each([
    ['a client that does not accept event streams', legacyList, { accept: 'application/json' }],
    ['a body that is not JSON by its content type', legacyList, { 'content-type': 'text/plain' }],
    ['a protocol version RDE does not serve', legacyList, { 'mcp-protocol-version': '2024-01-01' }],
    ['another method', { jsonrpc: '2.0', id: 3, method: 'ping' }, {}],
    [
      'the initialize handshake',
      {
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: { protocolVersion: LEGACY_REVISION, capabilities: {}, clientInfo: { name: 'test', version: '1' } },
      },
      {},
    ],
    ['a notification', { jsonrpc: '2.0', method: 'notifications/initialized' }, {}],
  ])('%s is left to the SDK transport, which answers it', async (_name, body, extra) => {
    const headers = legacyHeaders(extra);
    expect(await legacyFastAnswer(body, headers)).toBeUndefined();
    expect(await endpointAnswer(body, headers)).toEqual(await legacySdkAnswer(body, headers));
  });

  test.each([
    ['a request with a member JSON-RPC does not define', { ...legacyList, extra: true }],
    ['a request whose id is not an integer', { ...legacyList, id: 1.5 }],
  ])('%s is no 2025-era exchange by the SDK classifier: the SDK entry answers it', async (_name, body) => {
    const headers = legacyHeaders();
    expect(await legacyFastAnswer(body, headers)).toBeUndefined();
    expect(await endpointAnswer(body, headers)).toEqual(await sdkAnswer(body, headers));
  });

  test('a batch is never on the fast path: refused from 2025-06-18 on, a 2025-03-26 one answered by the SDK transport', async () => {
    const batch = [legacyList, legacyCall('list_tools', {}, 2)];
    const exchange = { ...exchangeOf(legacyList, legacyHeaders()), parsedBody: batch };
    expect(legacyRoute(exchange)).toBeUndefined();
    expect(readable(await endpoint.serve(exchange, CALLER))).toMatchObject({
      status: 400,
      body: { jsonrpc: '2.0', error: { code: -32600 }, id: null },
    });
    const batching = legacyHeaders({ 'mcp-protocol-version': '2025-03-26' });
    const earlier = { ...exchangeOf(legacyList, batching), parsedBody: batch };
    expect(readable(await endpoint.serve(earlier, CALLER))).toEqual(await legacySdkAnswer(batch, batching));
  });
});
