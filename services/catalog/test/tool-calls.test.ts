import { randomBytes } from 'node:crypto';
import { RdeError, type Backends, type Caller } from '@rde/platform';
import type { billingEvents, catalog } from '@rde/proto';
import { datasetIdOf } from '../src/domain/ids';
import { startCatalog, type CatalogUnderTest } from './support/catalog-under-test';
import type { FakeDownstreams } from './support/fake-downstreams';
import type { FakePplgraph } from './support/fake-pplgraph';

const caller: Caller = {
  workspaceId: 'ws_test',
  userId: 'usr_1',
  role: 'owner',
  keyId: 'key_1',
  sessionId: '',
  requestId: 'req_1',
};

describe('catalog service: tool calls', () => {
  let catalogUnderTest: CatalogUnderTest;
  let backends: Backends;
  let downstreams: FakeDownstreams;
  let vendor: FakePplgraph;
  let client: CatalogUnderTest['client'];
  let settlements: billingEvents.Settlement[];

  beforeAll(async () => {
    catalogUnderTest = await startCatalog();
    ({ backends, downstreams, vendor, client, settlements } = catalogUnderTest);
  });

  afterAll(() => catalogUnderTest?.stop());

  beforeEach(() => {
    settlements.length = 0;
    vendor.received.length = 0;
    downstreams.holds.clear();
    downstreams.datasets.length = 0;
    downstreams.setBalance(100_000);
    downstreams.failDatasets(false);
    vendor.answerWith({ rows: 3 });
  });

  const call = (
    request: Partial<catalog.CallToolRequest> & { payload?: unknown; args?: unknown; kwargs?: unknown; runId?: string },
    who: Caller | null = caller,
  ) =>
    client.callTool(
      {
        tool: 'pplgraph',
        method: 'search',
        dryRun: false,
        payloadJson: json(request.payload),
        argsJson: json(request.args),
        kwargsJson: json(request.kwargs),
        runId: '',
        ...request,
      },
      { caller: who ?? undefined },
    );

  async function refusalOf(promise: Promise<unknown>): Promise<{ status: number; body: Record<string, unknown> }> {
    const error = await promise.then(
      () => undefined,
      (rejected: unknown) => rejected,
    );
    if (!(error instanceof RdeError)) throw new Error(`expected an RdeError, got ${String(error)}`);
    return { status: error.httpStatus, body: error.body };
  }

  async function settlementOf(runId: string): Promise<billingEvents.Settlement> {
    for (let waited = 0; waited < 2_000; waited += 10) {
      const found = settlements.filter((s) => s.runId === runId);
      if (found.length > 0) return found[0];
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error(`no settlement for ${runId}`);
  }

  const catalogRuns = () => backends.documentStore('rde_catalog').then((store) => store.collection('runs'));
  const runOf = async (runId: string) => (await catalogRuns()).findOne({ _id: runId });
  const result = (response: catalog.CallToolResponse) => JSON.parse(response.resultJson.toString('utf8'));

  test('a paid call reserves the worst case, charges the returned rows once and settles in one write', async () => {
    const response = await call({ payload: { query: { job_title: ['CTO'] } } });
    const meta = response.meta!;
    expect(meta.runId).toMatch(/^run_[0-9a-f]{24}$/);
    expect(meta.creditsCharged).toEqual({ millicredits: 3_000 });
    // Its own hold is over once the call answers: `reserved` counts only the workspace's other holds.
    expect(meta.reserved).toEqual({ millicredits: 0 });
    expect(meta.balance).toEqual({ millicredits: 97_000 });
    // Nothing else is held: the call's figures are final before billing applies them (decision 0079).
    expect(meta.settled).toBe(true);
    expect(downstreams.holds.get(meta.runId)).toBe(10_000);
    expect(result(response)).toMatchObject({
      total: 1234,
      data: [{ pg_id: 'pg_0' }, { pg_id: 'pg_1' }, { pg_id: 'pg_2' }],
    });
    expect(vendor.received).toHaveLength(1);
    expect(vendor.received[0].body).toEqual({ query: { job_title: ['CTO'] } });

    const settlement = await settlementOf(meta.runId);
    expect(settlement).toMatchObject({ holdId: meta.runId, workspaceId: 'ws_test', final: true });
    expect(settlement.charges).toEqual([
      expect.objectContaining({
        chargeId: `${meta.runId}:0:pplgraph.search`,
        amount: { millicredits: 3_000 },
        userId: 'usr_1',
      }),
    ]);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(settlements.filter((s) => s.runId === meta.runId)).toHaveLength(1);
    expect(await runOf(meta.runId)).toMatchObject({
      status: 'succeeded',
      tool: 'pplgraph',
      method: 'search',
      workspace_id: 'ws_test',
      credits_charged_millicredits: 3_000,
    });
  });

  test('small paid row lists stay inline and are persisted too', async () => {
    const response = await call({ payload: { query: { job_title: ['CTO'] } } });
    expect(response.meta!.datasetId).toBe(datasetIdOf(response.meta!.runId));
    expect(response.meta!.rowCount).toBe(3);
    expect(downstreams.datasets).toHaveLength(1);
    expect(downstreams.datasets[0]).toMatchObject({
      datasetId: response.meta!.datasetId,
      source: 'tool:pplgraph.search',
      runId: response.meta!.runId,
    });
  });

  test('above the inline cap the rows go to a dataset and the answer keeps a five-row sample and the metadata', async () => {
    vendor.answerWith({ rows: 40 });
    const response = await call({ payload: { query: { job_title: ['CTO'] }, size: 40 } });
    const body = result(response);
    expect(body.total).toBe(1234);
    expect(body.scroll_token).toBe('40');
    expect(body.data).toMatchObject({ id: response.meta!.datasetId, row_count: 40 });
    expect(body.data.sample).toHaveLength(5);
    expect(response.meta!.rowCount).toBe(40);
    expect(JSON.parse(downstreams.datasets[0].rowsJson.toString('utf8'))).toHaveLength(40);
    expect(response.meta!.creditsCharged).toEqual({ millicredits: 40_000 });
  });

  test('an empty answer charges nothing and persists nothing, and still releases the hold', async () => {
    vendor.answerWith({ rows: 0 });
    const response = await call({ payload: { query: { job_title: ['Nobody'] } } });
    expect(response.meta!.creditsCharged).toEqual({ millicredits: 0 });
    expect(response.meta!.datasetId).toBe('');
    expect(downstreams.datasets).toHaveLength(0);
    expect(await settlementOf(response.meta!.runId)).toMatchObject({ final: true, charges: [] });
  });

  test.each([
    ['a vendor error', { status: 500 }, 'http_500'],
    ['a vendor that does not answer in time', { hangMs: 1_000 }, 'timeout'],
    ['a malformed answer', { malformed: true as const }, 'bad_response'],
  ])('%s fails the call with 502, charges nothing and releases the hold', async (_name, answer, reason) => {
    vendor.answerWith(answer);
    const { status, body } = await refusalOf(call({ payload: { query: { job_title: ['CTO'] } } }));
    expect(status).toBe(502);
    expect(body).toMatchObject({
      error: 'provider_failed',
      reason,
      tool: 'pplgraph',
      method: 'search',
      credits_charged: 0,
    });
    const runId = body.run_id as string;
    expect(await settlementOf(runId)).toMatchObject({ holdId: runId, final: true, charges: [] });
    expect(await runOf(runId)).toMatchObject({ status: 'failed', credits_charged_millicredits: 0 });
  });

  test('a request the vendor finds invalid is a 400 carrying its message, charged nothing', async () => {
    vendor.answerWith({ status: 400 });
    const { status, body } = await refusalOf(call({ payload: { query: { location: ['Atlantis'] } } }));
    expect(status).toBe(400);
    expect(body).toMatchObject({
      error: 'provider_rejected',
      detail: 'pplgraph refused the request: unknown location: "Atlantis"',
      credits_charged: 0,
    });
    expect(await settlementOf(body.run_id as string)).toMatchObject({ final: true, charges: [] });
  });

  test('a dataset that cannot be written fails the call without a charge', async () => {
    downstreams.failDatasets(true);
    const { status, body } = await refusalOf(call({ payload: { query: { job_title: ['CTO'] } } }));
    expect(status).toBe(503);
    expect(body).toMatchObject({ error: 'call_failed', credits_charged: 0 });
    expect(await settlementOf(body.run_id as string)).toMatchObject({ charges: [] });
  });

  test('a dry run prices and resolves the call without a hold or a vendor call', async () => {
    const response = await call({ args: [{ job_title: ['CTO'] }], kwargs: { size: 40 }, dryRun: true });
    expect(response.meta).toMatchObject({
      wouldChargeCredits: { millicredits: 1_000 },
      wouldChargeCreditsMax: { millicredits: 40_000 },
      wouldCall: 'pplgraph.search',
      runId: '',
    });
    expect(response.meta!.creditsCharged).toBeUndefined();
    expect(result(response)).toEqual({ dry_run: true, args: [{ job_title: ['CTO'] }], kwargs: { size: 40 } });
    expect(vendor.received).toHaveLength(0);
    expect(downstreams.holds.size).toBe(0);
  });

  test.each([
    ['an unknown key', { payload: { query: { job_title: ['CTO'] }, colour: 'red' } }, { unknown: ['colour'] }],
    ['a missing key', { payload: { size: 5 } }, { missing: ['query'] }],
    [
      'a filter the vendor does not have',
      { payload: { query: { favourite_food: ['x'] } } },
      {
        invalid: [
          { key: 'query.favourite_food', message: expect.stringMatching(/^unknown property 'favourite_food'/) },
        ],
      },
    ],
  ])('%s is refused with 400 before any hold or vendor call', async (_name, request, details) => {
    const { status, body } = await refusalOf(call(request));
    expect(status).toBe(400);
    expect(body).toMatchObject({ error: 'invalid_payload', expected: ['query', 'size', 'scroll_token'], ...details });
    expect(vendor.received).toHaveLength(0);
    expect(downstreams.holds.size).toBe(0);
  });

  test('a payload that is not an object is refused', async () => {
    const { status, body } = await refusalOf(call({ payload: ['not', 'an', 'object'] }));
    expect(status).toBe(400);
    expect(body).toEqual({ error: 'invalid_payload', detail: 'payload must be a JSON object' });
  });

  test('insufficient credits pass through as 402 and the vendor is never called', async () => {
    downstreams.setBalance(5_000);
    const { status, body } = await refusalOf(call({ payload: { query: { job_title: ['CTO'] } } }));
    expect(status).toBe(402);
    expect(body).toMatchObject({ error: 'insufficient_credits' });
    expect(vendor.received).toHaveLength(0);
  });

  test('an asynchronous vendor’s job methods are refused as single calls, before any hold', async () => {
    for (const method of ['submit', 'poll']) {
      const { status, body } = await refusalOf(call({ tool: 'reachout', method, payload: { linkedin_url: 'x' } }));
      expect(status).toBe(400);
      expect(body).toMatchObject({ error: 'job_method', tool: 'reachout', method, credits_charged: 0 });
    }
    expect(downstreams.holds.size).toBe(0);
  });

  describe('a retried call (same run id, e.g. on another replica after one died)', () => {
    const runId = () => `run_${randomBytes(12).toString('hex')}`;
    const search = { payload: { query: { job_title: ['CTO'] } } };
    /** A run as a replica leaves it when it dies after the hold, before the vendor answered. */
    const startedRun = (id: string) => ({
      _id: id,
      workspace_id: 'ws_test',
      user_id: 'usr_1',
      session_id: '',
      tool: 'pplgraph',
      method: 'search',
      reserved_millicredits: 10_000,
      status: 'running',
      charges: [],
      credits_charged_millicredits: 0,
      created_at: new Date(),
    });

    test('answers what the first call answered and charges once', async () => {
      const id = runId();
      const first = await call({ ...search, runId: id });
      const retried = await call({ ...search, runId: id });

      expect(retried).toEqual(first);
      expect(first.meta).toMatchObject({ runId: id, creditsCharged: { millicredits: 3_000 } });
      expect(vendor.received).toHaveLength(1);
      expect(downstreams.datasets).toHaveLength(1);
      await settlementOf(id);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(settlements.filter((s) => s.runId === id)).toHaveLength(1);
    });

    test('one cut short after its hold (its replica died) is finished by the retry, charged once', async () => {
      const id = runId();
      await (await catalogRuns()).insertOne(startedRun(id));
      downstreams.holds.set(id, 10_000);

      const response = await call({ ...search, runId: id });

      expect(response.meta).toMatchObject({ runId: id, creditsCharged: { millicredits: 3_000 } });
      expect(downstreams.holds.size).toBe(1);
      expect((await settlementOf(id)).charges).toEqual([
        expect.objectContaining({ chargeId: `${id}:0:pplgraph.search`, amount: { millicredits: 3_000 } }),
      ]);
      expect(await runOf(id)).toMatchObject({ status: 'succeeded', credits_charged_millicredits: 3_000 });
    });

    test('two attempts at once (the first replica still alive): one finish is written, both answer it', async () => {
      const id = runId();
      const [one, other] = await Promise.all([call({ ...search, runId: id }), call({ ...search, runId: id })]);

      expect(other).toEqual(one);
      await settlementOf(id);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(settlements.filter((s) => s.runId === id)).toHaveLength(1);
      expect(downstreams.holds.size).toBe(1);
    });

    test('a failure is answered again as it was, without a second vendor call', async () => {
      const id = runId();
      downstreams.failDatasets(true);
      const first = await refusalOf(call({ ...search, runId: id }));
      downstreams.failDatasets(false);
      const retried = await refusalOf(call({ ...search, runId: id }));

      expect(retried).toEqual(first);
      expect(first).toMatchObject({ status: 503, body: { error: 'call_failed', run_id: id } });
      expect(vendor.received).toHaveLength(1);
    });

    test('a refused hold leaves nothing behind: the retry, once credits allow, makes the call', async () => {
      const id = runId();
      downstreams.setBalance(5_000);
      expect((await refusalOf(call({ ...search, runId: id }))).status).toBe(402);
      expect(await runOf(id)).toBeNull();
      downstreams.setBalance(100_000);

      expect((await call({ ...search, runId: id })).meta).toMatchObject({ creditsCharged: { millicredits: 3_000 } });
    });

    test('another workspace or another method cannot reuse the run id; a malformed one is refused', async () => {
      const id = runId();
      await call({ ...search, runId: id });
      expect((await refusalOf(call({ ...search, runId: id }, { ...caller, workspaceId: 'ws_other' }))).status).toBe(
        409,
      );
      const anotherMethods = runId();
      await (await catalogRuns()).insertOne({ ...startedRun(anotherMethods), method: 'scroll' });
      expect((await refusalOf(call({ ...search, runId: anotherMethods }))).status).toBe(409);
      expect((await refusalOf(call({ ...search, runId: 'run_../x' }))).status).toBe(400);
      expect(vendor.received).toHaveLength(1);
    });
  });

  test('an unknown tool or method is 404, and a call without a caller is 401', async () => {
    expect((await refusalOf(call({ tool: 'nope', payload: {} }))).status).toBe(404);
    expect((await refusalOf(call({ method: 'nope', payload: {} }))).body).toEqual({
      detail: 'unknown method: pplgraph.nope',
    });
    expect((await refusalOf(call({ payload: { query: { job_title: ['CTO'] } } }, null))).status).toBe(401);
  });
});

function json(value: unknown): Buffer {
  return value === undefined ? Buffer.alloc(0) : Buffer.from(JSON.stringify(value));
}
