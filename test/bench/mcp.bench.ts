/**
 * MCP vs REST for the same paid single tool call (pplgraph.search, one profile), interleaved one at a
 * time in the same run; the per-request cost of the MCP server factory (a fresh low-level Server over
 * the module-scope tool catalog); and the mcp service's own cost of serving one tools/call of each
 * revision (SDK transport and protocol, argument check, result encoding) with the catalog RPC answered
 * at once, in process. Prints figures; asserts nothing on time.
 *
 *   pnpm run build && RDE_E2E_MODE=all pnpm exec tsx test/bench/mcp.bench.ts
 *
 * BENCH_CALLS (200) calls of each kind after WARM_UP untimed rounds. The like-for-like MCP legs are
 * raw POSTs with a plain fetch, as the REST leg is (2026-07-28, and a stateless 2025-06-18 client);
 * the official SDK client on 2026-07-28 is timed too, as an agent would call (its own result
 * validation included).
 */
import type { Client } from '@modelcontextprotocol/client';
import { createLogger } from '@rde/platform';
import type { ToolClients } from '../../services/mcp/src/clients';
import { createEndpoint, mcpServerFor } from '../../services/mcp/src/app/mcp-handler';
import { createSkillResources } from '../../services/mcp/src/app/skill-resources';
import { mode, startRde, type RunningRde } from '../e2e/harness';
import { mcpClient } from '../e2e/mcp-client';
import { describePercentiles, paidCall, PAID_CALL_BODY, percentiles, rdeCpuSeconds, timed, workspaceKeys } from './lib';

const CALLS = Number(process.env.BENCH_CALLS ?? 200);
const FACTORY_ROUNDS = 5_000;
const SERVED_ROUNDS = 2_000;
/** Untimed rounds first: connections, JIT and the SDK's lazily built schemas warm up. */
const WARM_UP = 20;
const LEGS = 4;
const CPU_SETTLE_MS = 500;

/** The call's arguments, the same as the REST leg's path and body. */
const CALL_PARAMS = {
  name: 'call_tool_method',
  arguments: { tool: 'pplgraph', method: 'search', ...PAID_CALL_BODY },
};
/** The 2026-07-28 per-request envelope a stateless client sends (no initialize handshake). */
const ENVELOPE_2026 = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};
type Revision = '2026-07-28' | '2025-06-18';

/** The body and headers of one stateless tools/call of the revision, as a client sends them. */
function toolsCall(revision: Revision) {
  const modern = revision === '2026-07-28';
  return {
    body: {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: modern ? { ...CALL_PARAMS, _meta: ENVELOPE_2026 } : CALL_PARAMS,
    },
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': revision,
      ...(modern && { 'mcp-method': 'tools/call', 'mcp-name': CALL_PARAMS.name }),
    },
  };
}

/** The same call as one raw stateless POST (plain fetch, as the REST leg): the server side alone, no SDK client. */
async function rawMcpCall(rde: RunningRde, key: string, revision: Revision): Promise<void> {
  const { body, headers } = toolsCall(revision);
  const response = await fetch(`${rde.baseUrl}/api/v2/mcp`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, ...headers },
    body: JSON.stringify(body),
  });
  const answer = (await response.json()) as { result?: { isError?: boolean } };
  if (response.status !== 200 || !answer.result || answer.result.isError) {
    throw new Error(`raw MCP paid call failed: ${response.status} ${JSON.stringify(answer)}`);
  }
}

async function paidMcpCall(client: Client): Promise<void> {
  const result = await client.callTool(CALL_PARAMS);
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

/** One tools/call of call_tool_method of the revision as the gateway hands it over, answered from a stub catalog. */
async function servedCallMicros(revision: Revision): Promise<number> {
  const meta = { creditsCharged: { millicredits: 1000 }, runId: 'run_bench', settled: false };
  const resultJson = Buffer.from(JSON.stringify({ data: [{ full_name: 'Ada Strong' }] }));
  const clients = { catalog: { callTool: async () => ({ resultJson, meta }) } } as unknown as ToolClients;
  const endpoint = createEndpoint(clients, createSkillResources(clients, createLogger('bench', 'silent')));
  const caller = { workspaceId: 'ws_bench', userId: 'usr_bench', requestId: 'bench' } as never;
  const { body, headers } = toolsCall(revision);
  const serve = async () => {
    const answer = await endpoint.serve(
      {
        method: 'POST',
        url: 'http://127.0.0.1/api/v2/mcp',
        headers: new Map(Object.entries(headers)),
        body: Buffer.from(JSON.stringify(body)),
        parsedBody: JSON.parse(JSON.stringify(body)),
      },
      caller,
    );
    const text = answer.body.toString('utf8');
    if (answer.status !== 200 || text.includes('"isError":true')) throw new Error(`served call: ${text}`);
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
  for (const revision of ['2026-07-28', '2025-06-18'] as const) {
    const served = await servedCallMicros(revision);
    console.log(
      `  MCP tools/call ${revision} served in process (stub RPC): ${served.toFixed(0)} µs per call (${SERVED_ROUNDS} rounds)`,
    );
  }
  const rde = await startRde({ RDE_SANDBOX_LATENCY_SCALE: '0', RDE_SANDBOX_RATE_LIMITS: 'false' });
  try {
    const keys = await workspaceKeys(rde, LEGS * (2 * CALLS + WARM_UP));
    const clients = await Promise.all(keys.map((key) => mcpClient(rde, key)));
    // The same paid call four ways; each round runs every leg once, its order rotated, so no leg
    // always follows the same one (each paid call leaves settlement work behind it).
    const legs: { label: string; call: (i: number) => Promise<void> }[] = [
      { label: 'REST POST /tools/pplgraph/search     ', call: (i) => paidCall(rde, keys[i % keys.length]) },
      {
        label: 'MCP tools/call, raw POST 2026-07-28  ',
        call: (i) => rawMcpCall(rde, keys[i % keys.length], '2026-07-28'),
      },
      {
        label: 'MCP tools/call, raw POST 2025-06-18  ',
        call: (i) => rawMcpCall(rde, keys[i % keys.length], '2025-06-18'),
      },
      { label: 'MCP tools/call, SDK client 2026-07-28', call: (i) => paidMcpCall(clients[i % clients.length]) },
    ];
    const times = legs.map(() => [] as number[]);
    for (let round = 0; round < WARM_UP + CALLS; round++) {
      for (let k = 0; k < legs.length; k++) {
        const leg = (round + k) % legs.length;
        const took = await timed(() => legs[leg].call(round * legs.length + k));
        if (round >= WARM_UP) times[leg].push(took);
      }
    }
    legs.forEach(({ label }, leg) => console.log(describePercentiles(`  ${label}`, times[leg])));
    const [rest, ...mcpLegs] = times.map(percentiles);
    mcpLegs.forEach(({ p50, p99 }, leg) =>
      console.log(
        `  ${legs[leg + 1].label.trim()} / REST: median ${(p50 / rest.p50).toFixed(2)}×, p99 ${(p99 / rest.p99).toFixed(2)}×`,
      ),
    );
    // The RDE process's CPU per call, leg by leg: unlike latency, it does not depend on what else the
    // shared machine runs. The pause lets each block's settlements finish inside its own window. All-in-one
    // only: distributed processes' idle work (consumers polling the real backends) would swamp it.
    let offset = LEGS * (CALLS + WARM_UP);
    for (const { label, call } of mode === 'all' ? legs : []) {
      const before = rdeCpuSeconds(rde);
      for (let i = 0; i < CALLS; i++) await call(offset++);
      await new Promise((resolve) => setTimeout(resolve, CPU_SETTLE_MS));
      console.log(`  ${label} RDE CPU per call: ${(((rdeCpuSeconds(rde) - before) * 1e6) / CALLS).toFixed(0)} µs`);
    }
    await Promise.all(clients.map((client) => client.close()));
  } finally {
    await rde.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
