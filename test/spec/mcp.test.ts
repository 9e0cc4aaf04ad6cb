import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { api, sandboxCounters } from '../e2e/api';
import { mode, startRde, waitUntil, type RunningRde } from '../e2e/harness';

jest.setTimeout(120_000);

const CHALLENGE_TOKEN = 'apps-challenge-e2e-token';
const ENGINEERS = { query: { job_title: ['Software Engineer'] } };
/** The 2026-07-28 revision (per-request envelope) and a stateless 2025-era client. */
const ERAS = [
  { era: 'modern', versionNegotiation: { mode: { pin: '2026-07-28' } } },
  { era: 'legacy', versionNegotiation: { mode: 'legacy' } },
] as const;

interface LedgerRow {
  id: string;
  kind: string;
  amount: number;
  run_id: string;
}

describe(`MCP server (${mode})`, () => {
  let rde: RunningRde;
  let mcpUrl: string;
  let discovery: string;

  beforeAll(async () => {
    rde = await startRde({ RDE_SANDBOX_LATENCY_SCALE: '0', RDE_OPENAI_APPS_CHALLENGE: CHALLENGE_TOKEN });
    mcpUrl = `${rde.baseUrl}/api/v2/mcp`;
    discovery = `resource_metadata="${rde.baseUrl}/.well-known/oauth-protected-resource/api/v2/mcp", scope="mcp"`;
  });

  afterAll(async () => {
    await rde?.stop();
  });

  const initialize = {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'spec', version: '1' } },
  };
  const post = (key: string | null, body: unknown = initialize) =>
    api(rde, 'POST', '/api/v2/mcp', { key, body, headers: { accept: 'application/json, text/event-stream' } });

  async function connect(versionNegotiation: (typeof ERAS)[number]['versionNegotiation'], key = rde.ownerKey) {
    const client = new Client({ name: 'rde-spec', version: '1.0.0' }, { versionNegotiation });
    const transport = new StreamableHTTPClientTransport(new URL(mcpUrl), {
      requestInit: { headers: { authorization: `Bearer ${key}` } },
    });
    await client.connect(transport);
    return client;
  }

  const balance = async () => (await api(rde, 'GET', '/billing/balance')).body;
  async function settledBalance() {
    await waitUntil(async () => (await balance())._meta.settled === true, 10_000);
    return balance();
  }

  describe('authentication', () => {
    test('a POST without a bearer gets 401 with the discovery challenge and no error code', async () => {
      const response = await post(null);
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe(`Bearer ${discovery}`);
      expect(response.body).toEqual({ detail: 'Not authenticated' });
    });

    test('a POST with an unknown bearer gets 401 with error="invalid_token"', async () => {
      const response = await post('rde_live_notakey');
      expect(response.status).toBe(401);
      const challenge = response.headers.get('www-authenticate')!;
      expect(challenge).toMatch(/^Bearer error="invalid_token"/);
      expect(challenge).toContain(discovery);
      expect(response.body).toMatchObject({ error: 'invalid_token', detail: expect.any(String) });
    });

    test('the session cookie is not an MCP bearer', async () => {
      const response = await post(null);
      const withCookie = await api(rde, 'POST', '/api/v2/mcp', {
        key: null,
        body: initialize,
        headers: { cookie: `rde_session=${rde.ownerKey}`, accept: 'application/json, text/event-stream' },
      });
      expect([response.status, withCookie.status]).toEqual([401, 401]);
    });

    test('an API key works as the bearer', async () => {
      const response = await post(rde.ownerKey);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toContain('application/json');
      expect(response.body.result.serverInfo.name).toBe('rde');
    });
  });

  describe('methods', () => {
    test('GET without a bearer is the discovery 401', async () => {
      const response = await api(rde, 'GET', '/api/v2/mcp', { key: null });
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe(`Bearer ${discovery}`);
    });

    test('GET with a valid bearer is 405: no server-initiated streams', async () => {
      const response = await api(rde, 'GET', '/api/v2/mcp');
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('POST');
    });

    test('DELETE is 405 and revokes nothing', async () => {
      const response = await api(rde, 'DELETE', '/api/v2/mcp');
      expect(response.status).toBe(405);
      expect((await post(rde.ownerKey)).status).toBe(200);
    });

    test('a notification is accepted with 202 and no body', async () => {
      const response = await post(rde.ownerKey, { jsonrpc: '2.0', method: 'notifications/initialized' });
      expect(response.status).toBe(202);
      expect(response.text).toBe('');
      expect(response.headers.get('content-type')).toBeNull();
    });

    test('a client that does not accept JSON is refused with 406', async () => {
      const response = await api(rde, 'POST', '/api/v2/mcp', {
        body: initialize,
        headers: { accept: 'text/html' },
      });
      expect(response.status).toBe(406);
    });

    test('the server is stateless: no Mcp-Session-Id is issued', async () => {
      const response = await post(rde.ownerKey);
      expect(response.status).toBe(200);
      expect(response.headers.get('mcp-session-id')).toBeNull();
    });
  });

  describe.each(ERAS)('the official SDK client ($era revision)', ({ versionNegotiation }) => {
    let client: Client;

    beforeAll(async () => {
      client = await connect(versionNegotiation);
    });

    afterAll(async () => {
      await client?.close();
    });

    test('lists the tools', async () => {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name).sort()).toEqual([
        'apply_workflow',
        'call_tool_method',
        'call_workflow',
        'describe_tool_method',
        'email_enrichment',
        'get_balance',
        'get_dataset',
        'get_dataset_rows',
        'get_enrich_job',
        'get_workflow_run',
        'get_workspace_skill',
        'linkedin_profile',
        'lint_workflow',
        'list_datasets',
        'list_tools',
        'list_workflow_runs',
        'list_workflows',
        'list_workspace_skills',
        'personal_email',
        'phone_enrichment',
        'qualify_candidates',
        'search_people',
      ]);
      const call = tools.find((tool) => tool.name === 'call_tool_method')!;
      expect(call.inputSchema).toMatchObject({ type: 'object', required: ['tool', 'method'] });
      expect(call.annotations).toMatchObject({ readOnlyHint: false });
    });

    test('a paid tool call is charged once in the ledger, with the REST _meta', async () => {
      const before = await settledBalance();
      const requestsBefore = (await sandboxCounters(rde)).pplgraph.search.requests;
      const result = await client.callTool({
        name: 'call_tool_method',
        arguments: { tool: 'pplgraph', method: 'search', payload: { ...ENGINEERS, size: 3 } },
      });
      expect(result.isError).toBeFalsy();
      const body = result.structuredContent as { data: unknown[]; _meta: Record<string, unknown> };
      expect(body.data).toHaveLength(3);
      expect(body._meta).toMatchObject({ credits_charged: 3, run_id: expect.stringMatching(/^run_/) });
      expect(result._meta).toMatchObject(body._meta);
      expect((await sandboxCounters(rde)).pplgraph.search.requests).toBe(requestsBefore + 1);

      const after = await settledBalance();
      expect(after.balance).toBe(before.balance - 3);
      const entries = after.recent_ledger.filter((entry: LedgerRow) => entry.run_id === body._meta.run_id);
      expect(entries).toEqual([
        expect.objectContaining({ id: `${body._meta.run_id as string}:0:pplgraph.search`, kind: 'charge', amount: -3 }),
      ]);
    });

    test('dry_run prices the call without calling the vendor or charging', async () => {
      const before = await settledBalance();
      const requestsBefore = (await sandboxCounters(rde)).pplgraph.search.requests;
      const result = await client.callTool({
        name: 'call_tool_method',
        arguments: { tool: 'pplgraph', method: 'search', payload: ENGINEERS, dry_run: true },
      });
      expect(result._meta).toMatchObject({ would_charge_credits: 1, would_call: 'pplgraph.search' });
      expect((await sandboxCounters(rde)).pplgraph.search.requests).toBe(requestsBefore);
      expect((await settledBalance()).balance).toBe(before.balance);
    });

    test('people search dry_run prices the waterfall without a vendor call or a charge', async () => {
      const before = await settledBalance();
      const requestsBefore = (await sandboxCounters(rde)).pplgraph.search.requests;
      const result = await client.callTool({
        name: 'search_people',
        arguments: { company_names: ['Acme Corp'], limit: 30, dry_run: true },
      });
      expect(result.isError).toBeFalsy();
      const body = result.structuredContent as { chain: { step: string }[]; _meta: Record<string, unknown> };
      expect(body.chain[0]).toMatchObject({ step: 'pplgraph.search', worst_case_credits: 30 });
      expect(body._meta.would_charge_credits).toEqual(expect.any(Number));
      expect((await sandboxCounters(rde)).pplgraph.search.requests).toBe(requestsBefore);
      expect((await settledBalance()).balance).toBe(before.balance);
    });

    test('a paid people search is charged as over REST, and its dataset is readable through the tools', async () => {
      const before = await settledBalance();
      const result = await client.callTool({
        name: 'search_people',
        arguments: { titles: ['Software Engineer'], limit: 2 },
      });
      expect(result.isError).toBeFalsy();
      const body = result.structuredContent as { hit: boolean; _meta: Record<string, unknown> };
      expect(body.hit).toBe(true);
      expect(body._meta).toMatchObject({ credits_charged: 2, row_count: 2, dataset_id: expect.stringMatching(/^ds_/) });
      const rows = await client.callTool({
        name: 'get_dataset_rows',
        arguments: { dataset_id: body._meta.dataset_id as string },
      });
      expect((rows.structuredContent as { rows: unknown[] }).rows).toHaveLength(2);
      const after = await settledBalance();
      expect(after.balance).toBe(before.balance - 2);
      const charges = after.recent_ledger.filter((entry: LedgerRow) => entry.run_id === body._meta.run_id);
      expect(charges.reduce((sum: number, entry: LedgerRow) => sum + entry.amount, 0)).toBe(-2);
    });

    test("a refused call is an MCP tool error carrying the spec's body", async () => {
      const result = await client.callTool({
        name: 'call_tool_method',
        arguments: { tool: 'no-such-tool', method: 'search' },
      });
      expect(result.isError).toBe(true);
      expect(result.structuredContent).toMatchObject({ status: 404, detail: expect.any(String) });
    });

    test('the balance tool reads what REST reads', async () => {
      const rest = await settledBalance();
      const result = await client.callTool({ name: 'get_balance', arguments: {} });
      expect(result.structuredContent).toMatchObject({ balance: rest.balance, available: rest.available });
    });

    test('arguments outside the input schema are refused', async () => {
      const result = await client.callTool({ name: 'get_dataset', arguments: { dataset_id: 42 } });
      expect(result.isError).toBe(true);
    });
  });

  describe('the apps directory challenge', () => {
    test('serves the configured token as bare text', async () => {
      const response = await api(rde, 'GET', '/.well-known/openai-apps-challenge', { key: null });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
      expect(response.text).toBe(CHALLENGE_TOKEN);
    });
  });
});
