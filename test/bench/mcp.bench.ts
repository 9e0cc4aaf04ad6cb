/**
 * MCP vs REST for the same paid single tool call (pplgraph.search, one profile), interleaved one at a
 * time in the same run; the per-request cost of the MCP server factory (a fresh low-level Server over
 * the module-scope tool catalog); and the mcp service's own cost of serving one tools/call (SDK
 * transport and protocol, argument check, result encoding) with the catalog RPC answered at once, in
 * process. Prints figures; asserts nothing on time.
 *
 *   pnpm run build && RDE_E2E_MODE=all pnpm exec tsx test/bench/mcp.bench.ts
 *
 * BENCH_CALLS (200) calls of each kind. The MCP leg uses the official SDK client on the 2026-07-28
 * revision, as an agent would; the REST leg is a plain fetch.
 */
import type { Client } from '@modelcontextprotocol/client';
import type { ToolClients } from '../../services/mcp/src/clients';
import { createEndpoint, mcpServerFor } from '../../services/mcp/src/app/mcp-handler';
import { mode, startRde, type RunningRde } from '../e2e/harness';
import { mcpClient } from '../e2e/mcp-client';
import { describePercentiles, paidCall, PAID_CALL_BODY, timed, workspaceKeys } from './lib';

const CALLS = Number(process.env.BENCH_CALLS ?? 200);
const FACTORY_ROUNDS = 5_000;
const SERVED_ROUNDS = 2_000;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** The same call as one raw stateless 2025-era POST: the server side alone, without the SDK client. */
async function rawMcpCall(rde: RunningRde, key: string): Promise<void> {
  const response = await fetch(`${rde.baseUrl}/api/v2/mcp`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${key}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-06-18',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'call_tool_method', arguments: { tool: 'pplgraph', method: 'search', ...PAID_CALL_BODY } },
    }),
  });
  const body = (await response.json()) as { result?: { isError?: boolean } };
  if (response.status !== 200 || !body.result || body.result.isError) {
    throw new Error(`raw MCP paid call failed: ${response.status} ${JSON.stringify(body)}`);
  }
}

async function paidMcpCall(client: Client): Promise<void> {
  const result = await client.callTool({
    name: 'call_tool_method',
    arguments: { tool: 'pplgraph', method: 'search', ...PAID_CALL_BODY },
  });
  if (result.isError) throw new Error(`MCP paid call failed: ${JSON.stringify(result.structuredContent)}`);
}

function factoryCostMicros(): number {
  const clients = {} as ToolClients;
  const caller = { workspaceId: 'ws_bench', userId: 'usr_bench', requestId: 'bench' } as never;
  for (let i = 0; i < 500; i++) mcpServerFor(clients, caller);
  const began = performance.now();
  for (let i = 0; i < FACTORY_ROUNDS; i++) mcpServerFor(clients, caller);
  return ((performance.now() - began) * 1000) / FACTORY_ROUNDS;
}

/** One 2026-07-28 tools/call of call_tool_method as the gateway hands it over, answered from a stub catalog. */
async function servedCallMicros(): Promise<number> {
  const meta = { creditsCharged: { millicredits: 1000 }, runId: 'run_bench', settled: false };
  const resultJson = Buffer.from(JSON.stringify({ data: [{ full_name: 'Ada Strong' }] }));
  const clients = { catalog: { callTool: async () => ({ resultJson, meta }) } } as unknown as ToolClients;
  const endpoint = createEndpoint(clients);
  const caller = { workspaceId: 'ws_bench', userId: 'usr_bench', requestId: 'bench' } as never;
  const body = {
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: {
      name: 'call_tool_method',
      arguments: { tool: 'pplgraph', method: 'search', ...PAID_CALL_BODY },
      _meta: {
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1' },
        'io.modelcontextprotocol/clientCapabilities': {},
      },
    },
  };
  const headers = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': '2026-07-28',
    'mcp-method': 'tools/call',
    'mcp-name': 'call_tool_method',
  };
  const serve = async () => {
    const request = new Request('http://127.0.0.1/api/v2/mcp', { method: 'POST', headers });
    const response = await endpoint.serve(request, JSON.parse(JSON.stringify(body)), caller);
    const text = await response.text();
    if (response.status !== 200 || text.includes('"isError":true')) throw new Error(`served call: ${text}`);
  };
  for (let i = 0; i < 200; i++) await serve();
  const began = performance.now();
  for (let i = 0; i < SERVED_ROUNDS; i++) await serve();
  await endpoint.close();
  return ((performance.now() - began) * 1000) / SERVED_ROUNDS;
}

async function main(): Promise<void> {
  console.log(`mcp bench: mode=${mode} calls=${CALLS} of each kind, one at a time, interleaved`);
  console.log(`  MCP server factory: ${factoryCostMicros().toFixed(1)} µs per request (${FACTORY_ROUNDS} rounds)`);
  const served = await servedCallMicros();
  console.log(
    `  MCP tools/call served in process (stub RPC): ${served.toFixed(0)} µs per call (${SERVED_ROUNDS} rounds)`,
  );
  const rde = await startRde({ RDE_SANDBOX_LATENCY_SCALE: '0', RDE_SANDBOX_RATE_LIMITS: 'false' });
  try {
    const keys = await workspaceKeys(rde, 3 * CALLS + 3);
    const clients = await Promise.all(keys.map((key) => mcpClient(rde, key)));
    await paidCall(rde, keys[0]);
    await paidMcpCall(clients[0]);
    await rawMcpCall(rde, keys[0]);
    const rest: number[] = [];
    const mcp: number[] = [];
    const raw: number[] = [];
    for (let i = 0; i < CALLS; i++) {
      rest.push(await timed(() => paidCall(rde, keys[i % keys.length])));
      mcp.push(await timed(() => paidMcpCall(clients[(i + 1) % clients.length])));
      raw.push(await timed(() => rawMcpCall(rde, keys[(i + 2) % keys.length])));
    }
    console.log(describePercentiles('  REST POST /tools/pplgraph/search     ', rest));
    console.log(describePercentiles('  MCP tools/call, SDK client 2026-07-28', mcp));
    console.log(describePercentiles('  MCP tools/call, raw POST 2025-06-18  ', raw));
    console.log(`  raw MCP / REST median ratio ${(median(raw) / median(rest)).toFixed(2)}×`);
    console.log(`  SDK-client MCP / REST median ratio ${(median(mcp) / median(rest)).toFixed(2)}×`);
    await Promise.all(clients.map((client) => client.close()));
  } finally {
    await rde.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
