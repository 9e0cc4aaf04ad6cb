import { api, sandboxCounters, type ApiResponse } from '../e2e/api';
import { mode, startRde, waitUntil, type RunningRde } from '../e2e/harness';
import { mcpClient } from '../e2e/mcp-client';
import { enrichmentSupport, rowOf, type Person } from './enrichment-support';

jest.setTimeout(120_000);

/**
 * Idempotency-Key on paid requests (issue 29, decision 0070): a retry with the same key and request
 * answers the first response and spends nothing; every rule is checked on the ledger and on the
 * sandbox vendors' request counters, through the public interface only.
 */
describe(`Idempotency-Key on paid requests (${mode})`, () => {
  let rde: RunningRde;
  const { workspace, person, knobs, resetKnobs, callsDuring, settled, charges } = enrichmentSupport(() => rde);
  let keys = 0;
  /** A key no other test uses, so each rule starts from an unclaimed key. */
  const freshKey = () => `idem-${mode}-${Date.now()}-${++keys}`;

  beforeAll(async () => {
    rde = await startRde({ RDE_SANDBOX_LATENCY_SCALE: '0', RDE_SANDBOX_RATE_LIMITS: 'false' }, mode, { shared: true });
  });

  afterAll(async () => {
    await rde?.stop();
  });

  afterEach(() => resetKnobs());

  /** The mailfinder look-up of a sandbox person: a paid tool call, billed on a hit. */
  const findPayload = (subject: Person) => ({
    first_name: subject.firstName,
    last_name: subject.lastName,
    domain: subject.company.domain,
  });
  const find = (key: string | null, subject: Person, headers: Record<string, string>, extra: object = {}) =>
    api(rde, 'POST', '/tools/mailfinder/find', { key, headers, body: { payload: findPayload(subject), ...extra } });

  /**
   * Requests every sandbox vendor endpoint received so far, summed, but a provider job's polls: a
   * job already started (by this file's first call or an earlier file's) is polled until it is done,
   * whatever a replay does.
   */
  const vendorRequests = async () =>
    Object.values(await sandboxCounters(rde))
      .flatMap((endpoints) => Object.entries(endpoints))
      .filter(([endpoint]) => endpoint !== 'poll')
      .reduce((sum, [, counted]) => sum + counted.requests, 0);

  /** A workspace whose mailfinder look-ups always hit, so each one that runs is charged. */
  async function hittingWorkspace() {
    await knobs('mailfinder', { hit_rate_multiplier: 50 });
    return workspace();
  }

  const chargesOfRun = async (key: string, runId: string) =>
    (await charges(key)).filter((entry) => entry.id.startsWith(`${runId}:`));

  test('the same key and request answer the first response byte for byte, replayed, charged once', async () => {
    const key = await hittingWorkspace();
    const subject = await person(29_000);
    const headers = { 'idempotency-key': freshKey() };
    const { result: first, calls: firstCalls } = await callsDuring(() => find(key, subject, headers));
    expect(first.status).toBe(200);
    expect(first.body.data.email).toBe(subject.workEmail);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(firstCalls).toEqual({ 'mailfinder.find': 1 });

    const { result: retry, calls: retryCalls } = await callsDuring(() => find(key, subject, headers));
    expect(retry.status).toBe(200);
    expect(retry.text).toBe(first.text);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.headers.get('content-type')).toBe(first.headers.get('content-type'));
    expect(retryCalls).toEqual({});

    const { credits_charged: charged, run_id: runId } = first.body._meta;
    expect(charged).toBeGreaterThan(0);
    expect(await settled(key)).toMatchObject({ balance: 100 - charged, reserved: 0 });
    expect(await chargesOfRun(key, runId)).toEqual([expect.objectContaining({ amount: charged })]);
    expect(await charges(key)).toHaveLength(1);
  });

  test('the same key with another request is 422 idempotency_key_reused and spends nothing', async () => {
    const key = await hittingWorkspace();
    const [subject, other] = [await person(29_100), await person(29_101)];
    const headers = { 'idempotency-key': freshKey() };
    expect((await find(key, subject, headers)).status).toBe(200);

    const reused = {
      status: 422,
      body: { error: 'idempotency_key_reused', detail: expect.stringContaining('new key') },
    };
    const { result: otherBody, calls: otherCalls } = await callsDuring(() => find(key, other, headers));
    expect(otherBody).toMatchObject(reused);
    const { result: otherRoute, calls: routeCalls } = await callsDuring(() =>
      api(rde, 'POST', '/enrich/email_enrichment', { key, headers, body: { payload: rowOf(subject) } }),
    );
    expect(otherRoute).toMatchObject(reused);
    const { result: otherQuery, calls: queryCalls } = await callsDuring(() =>
      api(rde, 'POST', '/tools/mailfinder/find?x=1', { key, headers, body: { payload: findPayload(subject) } }),
    );
    expect(otherQuery).toMatchObject(reused);
    expect({ ...otherCalls, ...routeCalls, ...queryCalls }).toEqual({});
    await settled(key);
    expect(await charges(key)).toHaveLength(1);
  });

  test('20 concurrent requests with one key: one vendor call, one charge, the others 409 or the replay', async () => {
    const key = await hittingWorkspace();
    // Slow enough that the other 19 arrive while the first is still with the vendor.
    await knobs('mailfinder', { hit_rate_multiplier: 50, latency_ms: { median: 800, p95: 800 } });
    const subject = await person(29_200);
    const headers = { 'idempotency-key': freshKey() };
    const { result: answers, calls: made } = await callsDuring(() =>
      Promise.all(Array.from({ length: 20 }, () => find(key, subject, headers))),
    );
    const ran = answers.filter((answer) => answer.status === 200 && !answer.headers.get('idempotent-replayed'));
    expect(ran).toHaveLength(1);
    const others = answers.filter((answer) => answer !== ran[0]);
    const inFlight = others.filter((answer) => answer.status === 409);
    expect(inFlight.length).toBeGreaterThan(0);
    for (const answer of inFlight) {
      expect(answer.body).toMatchObject({ error: 'idempotency_key_in_use' });
      expect(Number(answer.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    }
    for (const answer of others.filter((other) => other.status !== 409)) {
      expect(answer.headers.get('idempotent-replayed')).toBe('true');
      expect(answer.text).toBe(ran[0]!.text);
    }
    expect(made).toEqual({ 'mailfinder.find': 1 });
    const { credits_charged: charged, run_id: runId } = ran[0]!.body._meta;
    expect(await settled(key)).toMatchObject({ balance: 100 - charged, reserved: 0 });
    expect(await chargesOfRun(key, runId)).toEqual([expect.objectContaining({ amount: charged })]);

    const later = await find(key, subject, headers);
    expect(later.text).toBe(ran[0]!.text);
    expect(later.headers.get('idempotent-replayed')).toBe('true');
  });

  describe('a first request refused before any work is not kept: the corrected retry runs', () => {
    const refusals: [
      string,
      (key: string, subject: Person, headers: Record<string, string>) => Promise<ApiResponse>,
    ][] = [
      [
        '401 (a revoked or unknown key)',
        (_key, subject, headers) => find('rde_live_not-a-real-key-0123456789', subject, headers),
      ],
      ['422 (body validation)', (key, subject, headers) => find(key, subject, headers, { dry_run: 'yes' })],
      [
        '400 (the catalog refuses the payload)',
        (key, _subject, headers) =>
          api(rde, 'POST', '/tools/mailfinder/find', { key, headers, body: { payload: { first_name: 'Ada' } } }),
      ],
    ];

    test.each(refusals)('%s', async (_name, refused) => {
      const key = await hittingWorkspace();
      const subject = await person(29_300 + keys);
      const headers = { 'idempotency-key': freshKey() };
      const { result: refusal, calls: refusedCalls } = await callsDuring(() => refused(key, subject, headers));
      expect(refusal.status).toBeGreaterThanOrEqual(400);
      expect(refusal.status).toBeLessThan(500);
      expect(refusedCalls).toEqual({});

      const { result: corrected, calls: correctedCalls } = await callsDuring(() => find(key, subject, headers));
      expect(corrected.status).toBe(200);
      expect(corrected.headers.get('idempotent-replayed')).toBeNull();
      expect(corrected.body.data.email).toBe(subject.workEmail);
      expect(correctedCalls).toEqual({ 'mailfinder.find': 1 });
      await settled(key);
      expect(await charges(key)).toEqual([expect.objectContaining({ amount: corrected.body._meta.credits_charged })]);
    });
  });

  test('a malformed key is a 422 naming the header, and nothing runs', async () => {
    const key = await hittingWorkspace();
    const subject = await person(29_400);
    for (const bad of ['', 'k'.repeat(256)]) {
      const { result, calls: made } = await callsDuring(() => find(key, subject, { 'idempotency-key': bad }));
      expect(result.status).toBe(422);
      expect(result.body.detail).toEqual([expect.objectContaining({ loc: ['headers', 'idempotency-key'] })]);
      expect(made).toEqual({});
    }
    expect(await charges(key)).toEqual([]);
  });

  test('keys are scoped to the workspace: the same key in two workspaces runs twice, each charged once', async () => {
    const [first, second] = [await hittingWorkspace(), await hittingWorkspace()];
    const subject = await person(29_500);
    const headers = { 'idempotency-key': freshKey() };
    const { result: answers, calls: made } = await callsDuring(async () => [
      await find(first, subject, headers),
      await find(second, subject, headers),
    ]);
    expect(answers.map((answer) => answer.headers.get('idempotent-replayed'))).toEqual([null, null]);
    expect(answers[0]!.body._meta.run_id).not.toBe(answers[1]!.body._meta.run_id);
    expect(made).toEqual({ 'mailfinder.find': 2 });
    for (const key of [first, second]) {
      await settled(key);
      expect(await charges(key)).toHaveLength(1);
    }
  });

  test.each([
    ['a people search', '/search/people_search', { query: { titles: ['Software Engineer'] }, limit: 3 }],
    ['an enrichment', '/enrich/email_enrichment', { payload: { name: 'Idem Potent', company_domain: 'acme.com' } }],
  ])('%s is replayed too, with no second vendor call or charge', async (_name, path, body) => {
    const key = await hittingWorkspace();
    const headers = { 'idempotency-key': freshKey() };
    const first = await api(rde, 'POST', path, { key, headers, body });
    expect(first.status).toBe(200);
    await settled(key);
    const ledgerAfterFirst = await charges(key);
    const vendorsBefore = await vendorRequests();
    const retry = await api(rde, 'POST', path, { key, headers, body });
    expect(retry.text).toBe(first.text);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(await vendorRequests()).toBe(vendorsBefore);
    await settled(key);
    expect(await charges(key)).toEqual(ledgerAfterFirst);
  });

  test('a workflow call is replayed too: one run queued, worked and charged once', async () => {
    const key = await workspace();
    const workflow = {
      name: `idem-${keys}`,
      trigger: { type: 'manual' },
      steps: [{ id: 'verify', uses: 'verimail.verify', with: { email: 'idem@example.com' } }],
    };
    expect((await api(rde, 'POST', '/api/v2/workflows/apply', { key, body: workflow })).status).toBe(201);
    const headers = { 'idempotency-key': freshKey() };
    const body = { workflow: workflow.name };
    const { result: answers, calls: made } = await callsDuring(async () => {
      const first = await api(rde, 'POST', '/api/v2/workflows/call', { key, headers, body });
      const retry = await api(rde, 'POST', '/api/v2/workflows/call', { key, headers, body });
      await waitUntil(
        async () =>
          (await api(rde, 'GET', `/api/v2/workflows/runs?limit=5`, { key })).body.runs[0]?.status === 'succeeded',
        60_000,
        200,
      );
      return [first, retry];
    });
    expect(answers.map((answer) => answer.status)).toEqual([202, 202]);
    expect(answers[1]!.text).toBe(answers[0]!.text);
    expect(answers[1]!.headers.get('idempotent-replayed')).toBe('true');
    expect((await api(rde, 'GET', '/api/v2/workflows/runs', { key })).body.total).toBe(1);
    expect(made).toEqual({ 'verimail.verify': 1 });
    await settled(key);
    expect(await charges(key)).toHaveLength(1);
  });

  test('MCP tools/call takes the key in _meta["io.rde/idempotency-key"]: the retry gets the first result', async () => {
    const key = await hittingWorkspace();
    const subject = await person(29_600);
    const client = await mcpClient(rde, key);
    const idempotencyKey = freshKey();
    const callFind = () =>
      client.callTool({
        name: 'call_tool_method',
        arguments: { tool: 'mailfinder', method: 'find', payload: findPayload(subject) },
        _meta: { 'io.rde/idempotency-key': idempotencyKey },
      });
    try {
      const { result: first, calls: firstCalls } = await callsDuring(callFind);
      const { result: retry, calls: retryCalls } = await callsDuring(callFind);
      expect(first.isError).toBeFalsy();
      expect(retry).toEqual(first);
      expect(firstCalls).toEqual({ 'mailfinder.find': 1 });
      expect(retryCalls).toEqual({});
      const meta = first.structuredContent as { _meta: { credits_charged: number; run_id: string } };
      expect(await settled(key)).toMatchObject({ balance: 100 - meta._meta.credits_charged });
      expect(await chargesOfRun(key, meta._meta.run_id)).toHaveLength(1);
    } finally {
      await client.close();
    }
  });

  test('MCP: a malformed key, or a key reused with other arguments, is a JSON-RPC error and nothing runs', async () => {
    const key = await hittingWorkspace();
    const [subject, other] = [await person(29_700), await person(29_701)];
    const client = await mcpClient(rde, key);
    const callFind = (who: Person, idempotencyKey: string) =>
      client.callTool({
        name: 'call_tool_method',
        arguments: { tool: 'mailfinder', method: 'find', payload: findPayload(who) },
        _meta: { 'io.rde/idempotency-key': idempotencyKey },
      });
    try {
      const { calls: malformedCalls } = await callsDuring(() =>
        expect(callFind(subject, 'k'.repeat(256))).rejects.toThrow(/1–255 printable ASCII/),
      );
      expect(malformedCalls).toEqual({});
      const reusedKey = freshKey();
      expect((await callFind(subject, reusedKey)).isError).toBeFalsy();
      const { calls: reusedCalls } = await callsDuring(() =>
        expect(callFind(other, reusedKey)).rejects.toThrow(/different request/),
      );
      expect(reusedCalls).toEqual({});
      await settled(key);
      expect(await charges(key)).toHaveLength(1);
    } finally {
      await client.close();
    }
  });
});
