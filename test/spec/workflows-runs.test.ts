import { api, sandboxCounters, sandboxKnobs } from '../e2e/api';
import { mode, startRde, waitUntil, type RunningRde } from '../e2e/harness';
import { mcpClient } from '../e2e/mcp-client';
import { newTeam } from '../e2e/teams';
import { QUICK_ENRICHMENT_ENV } from './enrichment-support';
import { runsSupport, threeStep, verifications } from './workflows-runs-support';

jest.setTimeout(300_000);

/**
 * Workflow runs (spec "Workflows", "States and transitions", Limits; decision 0074): call by every
 * reference kind, live / dry_run / smoke_test charging what they say (ledger rows carrying the run's
 * workflow_run_id, the sandbox's counters), version pinning, cancel between steps, the workspace
 * cap (never a member cap), and every refusal. Two workflow replicas in distributed mode.
 */
describe(`workflows: runs (${mode})`, () => {
  let rde: RunningRde;
  const { workflows, applied, run, ended, called, ledger, runCharges, sum } = runsSupport(() => rde);
  const team = () => newTeam(rde, 'wfruns');
  const vendorCalls = async (vendor: string, endpoint: string) =>
    (await sandboxCounters(rde))[vendor]?.[endpoint]?.requests ?? 0;

  beforeAll(async () => {
    rde = await startRde(QUICK_ENRICHMENT_ENV, mode, { replicas: { workflow: 2 } });
  });

  afterAll(async () => {
    await rde?.stop();
  });

  test('a live 3-step run (search → enrich each person → qualify): every step stored, ledger = reported charges', async () => {
    const { owner } = await team();
    const id = await applied(owner, threeStep('live-three'));
    const searches = await vendorCalls('pplgraph', 'search');
    const queued = await workflows(owner, 'POST', '/call', { workflow_id: id, input: { city: 'Berlin' } });
    expect(queued.status).toBe(202);
    expect(queued.body).toMatchObject({
      id: expect.stringMatching(/^wfr_/),
      status: 'queued',
      version: 1,
      mode: 'live',
      source: 'api',
    });
    const done = await ended(owner, id, queued.body.id);
    expect(done).toMatchObject({ status: 'succeeded', error: null, input: { city: 'Berlin' } });
    expect(done.steps.map((step: any) => [step.id, step.status])).toEqual([
      ['find', 'succeeded'],
      ['emails', 'succeeded'],
      ['score', 'succeeded'],
    ]);
    const [find, emails, score] = done.steps;
    expect(find.output.results.length).toBeGreaterThan(0);
    expect(emails.items).toBe(find.output.results.length);
    expect(score.output.candidates).toHaveLength(find.output.results.length);
    expect(score.charged_credits).toBe(0);
    for (const step of done.steps)
      expect(Date.parse(step.ended_at)).toBeGreaterThanOrEqual(Date.parse(step.started_at));
    // Each reference kind: input, a step's output, run.id (item fed the enrichment above).
    expect(done.output).toEqual({ run: done.id, city: 'Berlin', first: find.output.results[0].full_name });
    expect(await vendorCalls('pplgraph', 'search')).toBeGreaterThan(searches);
    const charges = await runCharges(owner, done.id);
    expect(charges.length).toBeGreaterThan(0);
    expect(sum(charges)).toBe(done.charged_credits);
    expect(done.charged_credits).toBe(sum(done.steps.map((step: any) => step.charged_credits)));
  });

  test('the workflow is named by workflow (id or name), workflow_id, workflow_name or name; input or payload', async () => {
    const { owner } = await team();
    const id = await applied(owner, verifications('named', 1));
    for (const reference of [
      { workflow: id },
      { workflow: 'named' },
      { workflow_id: id },
      { workflow_name: 'named' },
      { name: 'named' },
    ]) {
      for (const input of [{ input: {} }, { payload: {} }]) {
        const queued = await workflows(owner, 'POST', '/call', { ...reference, ...input, mode: 'dry_run' });
        expect(queued.status).toBe(202);
        expect(queued.body.workflow_id).toBe(id);
      }
    }
    const listed = await workflows(owner, 'GET', `/${id}/runs`);
    expect(listed.body).toMatchObject({ offset: 0, limit: 25, total: 10 });
  });

  test('dry_run calls no vendor and charges nothing, each step with its would-charge estimate', async () => {
    const { owner } = await team();
    const id = await applied(owner, verifications('dry', 3));
    const before = await vendorCalls('verimail', 'verify');
    const done = await called(owner, { workflow_id: id, mode: 'dry_run' }, id);
    expect(done).toMatchObject({ status: 'succeeded', mode: 'dry_run', charged_credits: 0, would_charge_credits: 3 });
    expect(done.steps[0]).toMatchObject({ items: 3, charged_credits: 0, would_charge_credits: 3 });
    expect(await vendorCalls('verimail', 'verify')).toBe(before);
    expect((await ledger(owner)).filter((row) => row.kind === 'charge')).toEqual([]);
  });

  test('smoke_test runs live on the first for_each item only, and bills just that', async () => {
    const { owner } = await team();
    const id = await applied(owner, verifications('smoke', 4));
    const before = await vendorCalls('verimail', 'verify');
    const done = await called(owner, { workflow_id: id, mode: 'smoke_test' }, id);
    expect(done).toMatchObject({ status: 'succeeded', mode: 'smoke_test', charged_credits: 1 });
    expect(done.steps[0].items).toBe(1);
    expect(await vendorCalls('verimail', 'verify')).toBe(before + 1);
    expect(await runCharges(owner, done.id)).toEqual([1]);
  });

  test('a run is pinned to the version it was called on: applying v2 meanwhile changes nothing for it', async () => {
    const { owner } = await team();
    const id = await applied(owner, verifications('pinned', 2));
    const first = await workflows(owner, 'POST', '/call', { workflow_id: id });
    expect(
      (await workflows(owner, 'POST', '/apply', verifications('pinned', 1, { description: 'v2' }))).body.version,
    ).toBe(2);
    const second = await workflows(owner, 'POST', '/call', { workflow_id: id });
    const [v1, v2] = [await ended(owner, id, first.body.id), await ended(owner, id, second.body.id)];
    expect([v1.version, v1.steps[0].items, v1.charged_credits]).toEqual([1, 2, 2]);
    expect([v2.version, v2.steps[0].items, v2.charged_credits]).toEqual([2, 1, 1]);
    expect(await runCharges(owner, v1.id)).toEqual([1, 1]);
  });

  test('cancel stops the run between steps: the step in flight finishes and is billed, the rest is cancelled', async () => {
    const { owner } = await team();
    const definition = {
      name: 'cancelled',
      trigger: { type: 'manual' },
      steps: [
        { id: 'slow', uses: 'verimail.verify', with: { email: 'slow@example.com' } },
        { id: 'never', uses: 'verimail.verify', with: { email: 'never@example.com' } },
      ],
    };
    const id = await applied(owner, definition);
    await sandboxKnobs(rde, 'verimail', { latency_ms: { median: 4000, p95: 4000 } });
    try {
      const queued = await workflows(owner, 'POST', '/call', { workflow_id: id });
      await waitUntil(async () => (await run(owner, id, queued.body.id)).steps[0].status === 'running', 60_000, 100);
      const cancel = await workflows(owner, 'POST', `/${id}/runs/${queued.body.id}/cancel`);
      expect(cancel.status).toBe(200);
      expect(cancel.body).toMatchObject({ status: 'running', cancel_requested: true });
      const done = await ended(owner, id, queued.body.id);
      expect(done.status).toBe('cancelled');
      expect(done.steps.map((step: any) => [step.status, step.charged_credits])).toEqual([
        ['succeeded', 1],
        ['cancelled', 0],
      ]);
      expect(await runCharges(owner, done.id)).toEqual([1]);
      // An ended run answers as it is.
      expect((await workflows(owner, 'POST', `/${id}/runs/${done.id}/cancel`)).body.status).toBe('cancelled');
    } finally {
      await sandboxKnobs(rde, 'verimail', { latency_ms: { median: 0, p95: 0 } });
    }
  });

  test('a member cap does not apply to a run; ledger rows carry the run, no user', async () => {
    const { owner, member, memberId } = await team();
    await api(rde, 'PUT', `/api/v2/workspaces/members/${memberId}/spend-cap`, { key: owner, body: { cap_usd: 0.01 } });
    const id = await applied(owner, verifications('member-called', 3));
    const done = await called(member, { workflow_id: id }, id);
    expect(done).toMatchObject({ status: 'succeeded', charged_credits: 3 });
    const rows = (await ledger(owner)).filter((row) => row.workflow_run_id === done.id);
    expect(rows.map((row) => [row.amount, row.user_id])).toEqual([
      [-1, null],
      [-1, null],
      [-1, null],
    ]);
  });

  test('the workspace cap stops a run with a clear step error and nothing more is charged', async () => {
    const { owner } = await team();
    await api(rde, 'PUT', '/api/v2/billing/spending-cap', { key: owner, body: { cap: 2 } });
    const id = await applied(owner, verifications('capped', 5));
    const before = await vendorCalls('verimail', 'verify');
    const done = await called(owner, { workflow_id: id }, id);
    expect(done).toMatchObject({
      status: 'failed',
      charged_credits: 2,
      error: { code: 'spending_cap_reached', step: 'verify' },
    });
    expect(done.steps[0]).toMatchObject({ status: 'failed', items: 2, error: { code: 'spending_cap_reached' } });
    expect(await vendorCalls('verimail', 'verify')).toBe(before + 2);
    expect(await runCharges(owner, done.id)).toEqual([1, 1]);
  });

  test('MCP: call a workflow, read its run and list runs over the same RPCs as REST', async () => {
    const { owner } = await team();
    const id = await applied(owner, verifications('over-mcp', 2));
    const client = await mcpClient(rde, owner);
    try {
      const tool = async (name: string, args: Record<string, unknown>) =>
        (await client.callTool({ name, arguments: args })).structuredContent as Record<string, any>;
      const queued = await tool('call_workflow', { workflow: 'over-mcp', mode: 'dry_run' });
      expect(queued).toMatchObject({ workflow_id: id, status: 'queued', source: 'mcp', mode: 'dry_run' });
      const done = await ended(owner, id, queued.id);
      expect(await tool('get_workflow_run', { workflow_id: id, run_id: queued.id })).toEqual(done);
      expect(await tool('list_workflow_runs', { workflow_id: id })).toEqual(
        (await workflows(owner, 'GET', `/${id}/runs`)).body,
      );
      expect(await tool('list_workflow_runs', {})).toEqual((await workflows(owner, 'GET', '/runs')).body);
    } finally {
      await client.close();
    }
  });

  describe('refusals change nothing', () => {
    const noRuns = async (key: string) => expect((await workflows(key, 'GET', '/runs')).body.total).toBe(0);

    test('unknown workflow 404, disabled 409, input not matching the schema 422, bad bodies 422', async () => {
      const { owner } = await team();
      const id = await applied(owner, threeStep('refused'));
      const refusals: [unknown, number][] = [
        [{ workflow_id: 'wf_000000000000000000000000' }, 404],
        [{ name: 'no-such-workflow' }, 404],
        [{ workflow_id: id, input: { city: 7 } }, 422],
        [{ workflow_id: id, input: {} }, 422],
        [{ workflow_id: id, input: { city: 'Berlin' }, payload: { city: 'Berlin' } }, 422],
        [{ workflow_id: id, name: 'refused', input: { city: 'Berlin' } }, 422],
        [{ input: { city: 'Berlin' } }, 422],
        [{ workflow_id: id, input: { city: 'Berlin' }, mode: 'later' }, 422],
        [{ workflow_id: id, input: { city: 'Berlin' }, extra: true }, 422],
        [{ workflow_id: id, input: ['Berlin'] }, 422],
      ];
      for (const [body, status] of refusals) {
        const response = await workflows(owner, 'POST', '/call', body);
        expect([body, response.status]).toEqual([body, status]);
        expect(response.body.detail).toBeDefined();
      }
      const schemaRefusal = await workflows(owner, 'POST', '/call', { workflow_id: id, input: { city: 7 } });
      expect(schemaRefusal.body.detail[0]).toMatchObject({ loc: ['body', 'input', 'city'], type: 'type' });
      await workflows(owner, 'POST', `/${id}/disable`);
      const disabled = await workflows(owner, 'POST', '/call', { workflow_id: id, input: { city: 'Berlin' } });
      expect(disabled).toMatchObject({ status: 409, body: { error: 'workflow_disabled' } });
      await noRuns(owner);
      expect((await api(rde, 'POST', '/api/v2/workflows/call', { key: null, body: { workflow_id: id } })).status).toBe(
        401,
      );
    });

    test('runs of another workspace, unknown runs and unknown workflows are 404; list defaults are 50 and 25', async () => {
      const [mine, theirs] = [await team(), await team()];
      const id = await applied(mine.owner, verifications('private', 1));
      const done = await called(mine.owner, { workflow_id: id, mode: 'dry_run' }, id);
      for (const path of [`/${id}/runs/${done.id}`, `/${id}/runs`]) {
        expect((await workflows(theirs.owner, 'GET', path)).status).toBe(404);
      }
      expect((await workflows(theirs.owner, 'POST', `/${id}/runs/${done.id}/cancel`)).status).toBe(404);
      expect((await workflows(mine.owner, 'GET', `/${id}/runs/wfr_000000000000000000000000`)).status).toBe(404);
      expect((await workflows(mine.owner, 'GET', '/wf_000000000000000000000000/runs')).status).toBe(404);
      const recent = await workflows(mine.owner, 'GET', '/runs');
      expect(recent.body).toMatchObject({ offset: 0, limit: 50, total: 1 });
      expect(recent.body.runs[0]).toMatchObject({ id: done.id, status: 'succeeded' });
      expect(recent.body.runs[0].steps[0].output).toBeUndefined();
      await noRuns(theirs.owner);
    });
  });
});
