import { api } from '../e2e/api';
import { mode, startRde, waitUntil, type RunningRde } from '../e2e/harness';
import { mcpClient } from '../e2e/mcp-client';
import { enrichmentSupport, JOB_HIT_CHARGE, rowOf, type EnrichedRow } from './enrichment-support';

jest.setTimeout(240_000);

/**
 * The MCP tools beyond the catalog (decision 0028): the enrichment waterfalls, their provider jobs
 * and qualify, each charged, refused and answered exactly as its REST route, with the ledger and
 * the sandbox vendors' counters checked; and each tool's input schema is its route's body schema.
 */
describe(`MCP enrichment and qualify tools (${mode})`, () => {
  let rde: RunningRde;
  const support = enrichmentSupport(() => rde);
  const { workspace, person, knobs, resetKnobs, callsDuring, settled, charges, datasetRows } = support;

  beforeAll(async () => {
    rde = await startRde({
      RDE_SANDBOX_LATENCY_SCALE: '0',
      RDE_SANDBOX_RATE_LIMITS: 'false',
      RDE_ENRICH_DETACH_MS: '1500',
      RDE_ENRICH_POLL_BUDGET_MS: '1500',
      RDE_ENRICH_POLL_INTERVAL_MS: '200',
    });
  });

  afterAll(async () => {
    await rde?.stop();
  });

  afterEach(() => resetKnobs());

  /** One tool call for a workspace: the structured result (the REST body, or the error body with its status). */
  async function call(key: string, name: string, args: Record<string, unknown>) {
    const client = await mcpClient(rde, key);
    try {
      const result = await client.callTool({ name, arguments: args });
      return {
        isError: result.isError === true,
        body: result.structuredContent as Record<string, any>,
        meta: result._meta,
      };
    } finally {
      await client.close();
    }
  }

  const rest = (key: string, method: string, path: string, body?: unknown) => api(rde, method, path, { key, body });

  test('an enrichment tool is charged once for its hit, as over REST, with the REST _meta', async () => {
    const key = await workspace();
    await knobs('mailfinder', { hit_rate_multiplier: 50 });
    const subject = await person(12_000);
    const { result, calls } = await callsDuring(() => call(key, 'email_enrichment', { payload: rowOf(subject) }));
    expect(result.isError).toBe(false);
    const [row] = result.body.results as EnrichedRow[];
    expect(row).toMatchObject({ hit: true, email: subject.workEmail });
    expect(row!.steps).toEqual([expect.objectContaining({ step: 'mailfinder.find', outcome: 'hit', charged: 1 })]);
    expect(result.body._meta).toMatchObject({ charged: 1, run_id: expect.any(String) });
    expect(result.meta).toMatchObject(result.body._meta);
    expect(calls).toEqual({ 'mailfinder.find': 1 });
    expect(await settled(key)).toMatchObject({ balance: 99, reserved: 0 });
    expect(await charges(key)).toEqual([expect.objectContaining({ amount: 1 })]);
  });

  test('an enrichment dry_run prices the chain without a vendor call or a charge', async () => {
    const key = await workspace();
    const subject = await person(12_100);
    const { result, calls } = await callsDuring(() =>
      call(key, 'phone_enrichment', { payload: rowOf(subject), dry_run: true }),
    );
    expect(result.isError).toBe(false);
    expect(result.body._meta.would_charge_credits).toEqual(expect.any(Number));
    expect(calls).toEqual({});
    expect(await settled(key)).toMatchObject({ balance: 100, reserved: 0 });
    expect(await charges(key)).toEqual([]);
  });

  test('an identical rows batch through the tool within 15 minutes is replayed at 0, calling nobody', async () => {
    const key = await workspace();
    const rows = (await Promise.all([12_200, 12_201, 12_202].map(person))).map((p) => rowOf(p));
    const first = await call(key, 'email_enrichment', { rows });
    const datasetId = first.body._meta.dataset_id as string;
    expect(datasetId).toMatch(/^ds_/);
    await waitUntil(async () => (await datasetRows(key, datasetId)).every((row) => row.steps.length > 0), 30_000, 250);
    const paid = await settled(key);
    const { result: replay, calls } = await callsDuring(() => call(key, 'email_enrichment', { rows }));
    expect(calls).toEqual({});
    expect(replay.body._meta).toMatchObject({ replayed: true, charged: 0, credits_charged: 0, dataset_id: datasetId });
    expect(await settled(key)).toMatchObject({ balance: paid.balance, reserved: 0 });
  });

  test('a still_enriching job is read free with get_enrich_job and with its resume through call_tool_method', async () => {
    const key = await workspace();
    await knobs('dialbook', { hit_rate_multiplier: 0 });
    await knobs('ringdirect', { hit_rate_multiplier: 5, job_duration_ms: { median: 4000, p95: 4000 } });
    const subject = await person(12_300);
    const opened = await call(key, 'phone_enrichment', { payload: rowOf(subject) });
    const [row] = opened.body.results as EnrichedRow[];
    const jobId = row!.job_id as string;
    expect(row).toMatchObject({ reason: 'still_enriching', resume: { tool: 'enrich_jobs', method: 'ringdirect' } });

    const { result: reads } = await callsDuring(() =>
      Promise.all([
        call(key, 'get_enrich_job', { provider: 'ringdirect', job_id: jobId }),
        call(key, 'call_tool_method', { tool: 'enrich_jobs', method: 'ringdirect', payload: { job_id: jobId } }),
      ]),
    );
    const restJob = (await rest(key, 'GET', `/enrich/jobs/ringdirect/${jobId}`)).body;
    for (const read of reads) {
      expect(read.isError).toBe(false);
      expect(read.body).toMatchObject({ provider: 'ringdirect', job_id: jobId, status: 'pending' });
      expect(read.body).toEqual(restJob);
    }
    expect(await charges(key)).toEqual([]);
    const otherWorkspace = await call(await workspace(), 'get_enrich_job', { provider: 'ringdirect', job_id: jobId });
    expect(otherWorkspace).toMatchObject({ isError: true, body: { status: 404 } });

    // The service finishes the job and bills it once; the tool then reads it settled.
    const read = () => call(key, 'get_enrich_job', { provider: 'ringdirect', job_id: jobId });
    await waitUntil(async () => (await read()).body.status === 'settled', 30_000, 250);
    expect((await read()).body).toMatchObject({ charged: 3, result: { phone: subject.mobilePhone } });
    expect(await settled(key)).toMatchObject({ balance: 97, reserved: 0 });
    expect(await charges(key)).toEqual([
      { id: expect.stringMatching(JOB_HIT_CHARGE), kind: expect.any(String), amount: 3 },
    ]);
  });

  test("arguments the REST route refuses are a tool error with the route's own error body, nothing spent", async () => {
    const key = await workspace();
    const row = rowOf(await person(12_400));
    const cases: [string, string, Record<string, unknown>][] = [
      ['email_enrichment', '/tools/email_enrichment', { rows: [row, 'not a row', [1]] }],
      ['email_enrichment', '/tools/email_enrichment', { rows: [row], payload: row }],
      ['qualify_candidates', '/qualify', { job_spec: 'Backend Engineer', candidates: [{ full_name: 'A' }, 7] }],
      ['qualify_candidates', '/qualify', { job_spec: 'Backend Engineer', candidates: [], min_score: '7' }],
      ['call_tool_method', '/tools/enrich_jobs/ringdirect', { payload: {} }],
    ];
    const { result, calls } = await callsDuring(() =>
      Promise.all(
        cases.map(async ([tool, path, body]) => {
          const args = tool === 'call_tool_method' ? { tool: 'enrich_jobs', method: 'ringdirect', ...body } : body;
          return { mcp: await call(key, tool, args), rest: await rest(key, 'POST', path, body) };
        }),
      ),
    );
    const statuses = result.map(({ rest: { status } }) => status);
    expect(statuses).toEqual([422, 400, 422, 422, 422]);
    for (const { mcp, rest: answer } of result) {
      expect(mcp.isError).toBe(true);
      expect(mcp.body).toEqual({ status: answer.status, ...answer.body });
    }
    expect(result[2]!.mcp.body.detail).toMatchObject({ error: 'bad_candidates', rows: [1] });
    expect(result[3]!.mcp.body.detail).toMatchObject({ error: 'bad_min_score' });
    expect(calls).toEqual({});
    expect(await charges(key)).toEqual([]);
  });

  test('qualify_candidates ranks as POST /qualify does, free', async () => {
    const key = await workspace();
    const role = (title: string, start: string) => ({ title, company: 'Streamly', start, end: null, is_current: true });
    const body = {
      job_spec: 'Senior Backend Engineer, 5+ years, TypeScript, Kafka',
      candidates: [
        { full_name: 'Dan Draw', work_experience: [role('Product Designer', '2019-01')] },
        { full_name: 'Ada Strong', profile: { experience: [role('Senior Backend Engineer', '2016-01')] } },
      ],
    };
    const { result, calls } = await callsDuring(() => call(key, 'qualify_candidates', body));
    expect(result.isError).toBe(false);
    expect(result.body).toEqual((await rest(key, 'POST', '/qualify', body)).body);
    expect(result.body.candidates.map((row: { full_name: string }) => row.full_name)).toEqual([
      'Ada Strong',
      'Dan Draw',
    ]);
    expect(result.body._meta).toMatchObject({ credits_charged: 0 });
    expect(calls).toEqual({});
    expect(await charges(key)).toEqual([]);
  });

  test("each tool that mirrors a REST route advertises that route's request schema", async () => {
    const client = await mcpClient(rde, rde.ownerKey);
    const { tools } = await client.listTools();
    await client.close();
    const openapi = (await api(rde, 'GET', '/openapi.json', { key: null })).body;
    const bodyOf = (path: string) => openapi.paths[path].post.requestBody.content['application/json'].schema;
    const inputOf = (name: string) => asOpenApi(tools.find((tool) => tool.name === name)!.inputSchema);
    for (const capability of ENRICH_CAPABILITIES) expect(inputOf(capability)).toEqual(bodyOf(`/tools/${capability}`));
    expect(inputOf('qualify_candidates')).toEqual(bodyOf('/qualify'));
    expect(inputOf('search_people')).toEqual(bodyOf('/search/{capability}'));
  });
});

const ENRICH_CAPABILITIES = ['email_enrichment', 'personal_email', 'linkedin_profile', 'phone_enrichment'];

/** A JSON schema as /openapi.json renders it: the OpenAPI generator writes `const` as a one-value `enum`. */
function asOpenApi(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(asOpenApi);
  if (schema === null || typeof schema !== 'object') return schema;
  return Object.fromEntries(
    Object.entries(schema).map(([key, value]) => (key === 'const' ? ['enum', [value]] : [key, asOpenApi(value)])),
  );
}
