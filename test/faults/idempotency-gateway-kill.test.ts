import type { Client } from '@modelcontextprotocol/client';
import { api, sandboxCounters, type ApiResponse } from '../e2e/api';
import { mode, startRde, waitUntil, type RunningRde } from '../e2e/harness';
import { mcpClient } from '../e2e/mcp-client';
import { enrichmentSupport, type Person } from '../spec/enrichment-support';

jest.setTimeout(240_000);

/** How long a dead gateway's in-flight marker outlives it here (production: 10 s). */
const LEASE_MS = 1500;
/** The vendor's answer time: the kill lands while the call waits for it. */
const VENDOR_LATENCY_MS = 4000;

/**
 * Two gateway replicas (decision 0070): the one holding a keyed, slow paid call is SIGKILLed while
 * the vendor is still answering; the client retries on the other with the same key. Once the dead
 * gateway's lease lapses, the retry joins the same run (its run id is derived from workspace, key
 * and request; the tool call, the search and the enrichment each take it as theirs): one charge,
 * and every later retry answers the same. Distributed mode only.
 */
const describeDistributed = mode === 'distributed' ? describe : describe.skip;

/** One keyed paid route: the slow vendor it waits on, its body, and what its answer found. */
interface PaidRoute {
  readonly name: string;
  readonly path: string;
  readonly vendor: string;
  readonly endpoint: string;
  readonly body: (subject: Person) => object;
  readonly found: (body: any, subject: Person) => void;
}

/** The person as a one-row payload, the company's domain under the name the route reads. */
const personPayload = (subject: Person, domainField: string) => ({
  payload: { first_name: subject.firstName, last_name: subject.lastName, [domainField]: subject.company.domain },
});

const ROUTES: PaidRoute[] = [
  {
    name: 'a tool call',
    path: '/tools/mailfinder/find',
    vendor: 'mailfinder',
    endpoint: 'find',
    body: (subject) => personPayload(subject, 'domain'),
    found: (body, subject) => expect(body.data.email).toBe(subject.workEmail),
  },
  {
    name: 'a people search',
    path: '/search/people_search',
    vendor: 'pplgraph',
    endpoint: 'search',
    body: () => ({ titles: ['Software Engineer'], locations: ['Berlin'], limit: 1 }),
    found: (body) => expect(body.results).toHaveLength(1),
  },
  {
    name: 'an enrichment',
    path: '/enrich/email_enrichment',
    vendor: 'mailfinder',
    endpoint: 'find',
    body: (subject) => personPayload(subject, 'company_domain'),
    found: (body, subject) => expect(body.results[0].email).toBe(subject.workEmail),
  },
];

describeDistributed('fault: the gateway holding a keyed paid call dies; the retry on the other joins it', () => {
  let rde: RunningRde;
  /** The deployment as the helpers reach it: through the surviving gateway once the first is dead. */
  let live: RunningRde;
  const { workspace, person, knobs, resetKnobs, settled, charges } = enrichmentSupport(() => live);

  beforeAll(async () => {
    rde = await startRde(
      { RDE_SANDBOX_LATENCY_SCALE: '0', RDE_SANDBOX_RATE_LIMITS: 'false', RDE_IDEMPOTENCY_LEASE_MS: String(LEASE_MS) },
      mode,
      { gateways: 2 },
    );
    live = rde;
  });

  afterEach(async () => {
    // The killed gateway comes back for the next route; the vendor answers at its usual pace.
    await resetKnobs();
    await rde.restartModule('gateway');
    live = rde;
  });

  afterAll(async () => {
    await rde?.stop();
  });

  test.each(ROUTES)('$name: one charge, and the retry and every later one answer the same', async (route) => {
    const key = await workspace();
    await knobs(route.vendor, {
      hit_rate_multiplier: 50,
      latency_ms: { median: VENDOR_LATENCY_MS, p95: VENDOR_LATENCY_MS },
    });
    const subject = await person(29_900);
    const request = {
      key,
      headers: { 'idempotency-key': `gateway-kill-${route.endpoint}-${Date.now()}` },
      body: route.body(subject),
    };
    const [first, second] = rde
      .replicasOf('gateway')
      .map((gateway) => ({ baseUrl: rde.baseUrlOf(gateway), ownerKey: key }));
    const vendorCalls = async () => (await sandboxCounters(rde))[route.vendor]?.[route.endpoint]?.requests ?? 0;
    const before = await vendorCalls();

    const dying = api(first!, 'POST', route.path, request).catch((error: unknown) => error);
    await waitUntil(async () => (await vendorCalls()) > before, 30_000, 50);
    await rde.stopModule('gateway', 'SIGKILL');
    live = { ...rde, baseUrl: second!.baseUrl };
    // The client's connection died with the gateway: it never saw an answer.
    expect(String(await dying)).toContain('fetch failed');

    // While the dead gateway's lease stands the key is in use (409, Retry-After); then the retry runs.
    let answer: ApiResponse | undefined;
    await waitUntil(
      async () => {
        answer = await api(second!, 'POST', route.path, request);
        return answer.status !== 409;
      },
      60_000,
      250,
    );
    expect(answer!.status).toBe(200);
    route.found(answer!.body, subject);
    const { credits_charged: charged, run_id: runId } = answer!.body._meta;
    expect(charged).toBeGreaterThan(0);

    // The first attempt's run finished too (its hold is released): both were one run, charged once.
    expect(await settled(key)).toMatchObject({ balance: 100 - charged, reserved: 0 });
    const made = await charges(key);
    expect(made.length).toBeGreaterThan(0);
    for (const charge of made) expect(charge.id.startsWith(`${runId}:`)).toBe(true);
    expect(made.reduce((total, charge) => total + charge.amount, 0)).toBeCloseTo(charged, 3);

    const later = await api(second!, 'POST', route.path, request);
    expect(later.text).toBe(answer!.text);
    expect(later.headers.get('idempotent-replayed')).toBe('true');
  });
  test('an MCP tools/call keyed in its _meta: one charge, and the retry and every later one answer the same', async () => {
    const key = await workspace();
    await knobs('mailfinder', {
      hit_rate_multiplier: 50,
      latency_ms: { median: VENDOR_LATENCY_MS, p95: VENDOR_LATENCY_MS },
    });
    const subject = await person(29_950);
    const [first, second] = rde.replicasOf('gateway').map((gateway) => ({ ...rde, baseUrl: rde.baseUrlOf(gateway) }));
    const [dyingClient, survivingClient] = [await mcpClient(first!, key), await mcpClient(second!, key)];
    const idempotencyKey = `gateway-kill-mcp-${Date.now()}`;
    const find = (client: Client) =>
      client.callTool({
        name: 'call_tool_method',
        arguments: { tool: 'mailfinder', ...personPayload(subject, 'domain'), method: 'find' },
        _meta: { 'io.rde/idempotency-key': idempotencyKey },
      });
    const vendorCalls = async () => (await sandboxCounters(rde)).mailfinder?.find?.requests ?? 0;
    const before = await vendorCalls();

    const dying = find(dyingClient).catch((error: unknown) => error);
    await waitUntil(async () => (await vendorCalls()) > before, 30_000, 50);
    await rde.stopModule('gateway', 'SIGKILL');
    live = second!;
    expect(String(await dying)).toContain('fetch failed');

    // While the dead gateway's lease stands the key is in use (a JSON-RPC error); then the retry runs.
    let answer: Awaited<ReturnType<typeof find>> | undefined;
    await waitUntil(
      async () => {
        answer = await find(survivingClient);
        return true;
      },
      60_000,
      250,
    );
    expect(answer!.isError).toBeFalsy();
    const { credits_charged: charged, run_id: runId } = (answer!.structuredContent as any)._meta;
    expect(charged).toBeGreaterThan(0);
    expect(await settled(key)).toMatchObject({ balance: 100 - charged, reserved: 0 });
    const made = await charges(key);
    expect(made.map((charge) => charge.id.startsWith(`${runId}:`))).toEqual([true]);
    expect(await find(survivingClient)).toEqual(answer);
    await Promise.all([dyingClient.close(), survivingClient.close()]);
  });
});
