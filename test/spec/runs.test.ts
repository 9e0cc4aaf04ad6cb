import { api } from '../e2e/api';
import { mode, startRde, waitUntil, type RunningRde } from '../e2e/harness';
import { NO_STRIPE_ENV } from '../e2e/stripe';
import { QUICK_RUNS_ENV, enrichmentSupport, type EnrichedRow } from './enrichment-support';

jest.setTimeout(240_000);

/**
 * The spec's Dataset enrichment runs section, rule by rule, through the gateway: the body, the
 * ledger and the sandbox vendors' counters. Vendors answer at once; runs are cut into chunks of
 * 10 rows so every run here is worked as several chunks.
 */
describe(`dataset enrichment runs (${mode})`, () => {
  let rde: RunningRde;
  const support = enrichmentSupport(() => rde);
  const { workspace, person, peopleRows, knobs, resetKnobs, callsDuring, settled, charges } = support;

  beforeAll(async () => {
    rde = await startRde({ ...QUICK_RUNS_ENV, ...NO_STRIPE_ENV });
  });

  afterAll(async () => {
    await rde?.stop();
  });

  afterEach(() => resetKnobs());

  const run = (key: string, body: object) => api(rde, 'POST', '/enrich/run', { key, body });
  const poll = (key: string, runId: string) => api(rde, 'GET', `/enrich/runs/${runId}`, { key });
  /** Polls the run until it ends, as a client following poll_after_s would. */
  async function ended(key: string, runId: string) {
    await waitUntil(async () => (await poll(key, runId)).body._meta.status !== 'running', 120_000, 250);
    return (await poll(key, runId)).body;
  }
  async function rowsOf(key: string, datasetId: string): Promise<EnrichedRow[]> {
    const response = await api(rde, 'GET', `/api/v2/datasets/${datasetId}/rows?limit=1000`, { key });
    return response.body.rows as EnrichedRow[];
  }
  async function dataset(key: string, rows: object[]): Promise<string> {
    const created = await api(rde, 'POST', '/api/v2/datasets', { key, body: { name: 'leads', rows } });
    expect(created.status).toBe(201);
    return created.body.id as string;
  }
  /** The ledger holds exactly `credits` of charges, each charge id once, and no hold is left. */
  async function billedOnce(key: string, credits: number) {
    const balance = await settled(key, 60_000);
    const ledger = await charges(key);
    expect(new Set(ledger.map((entry) => entry.id)).size).toBe(ledger.length);
    expect(Math.round(ledger.reduce((sum, entry) => sum + entry.amount, 0) * 1000)).toBe(Math.round(credits * 1000));
    expect(balance).toMatchObject({ balance: 100 - credits, reserved: 0 });
  }

  test('rule 1: the range is enriched into a new dataset (or in place), the other rows pass through untouched', async () => {
    const key = await workspace();
    const rows = await peopleRows(5000, 30);
    const input = await dataset(key, rows);
    const { result, calls } = await callsDuring(() =>
      run(key, { input, steps: ['email_enrichment'], range: '5:25', output_name: 'leads enriched' }),
    );
    expect(result.status).toBe(200);
    const answer = result.body;
    expect(answer).not.toHaveProperty('rows');
    expect(answer._meta).toMatchObject({ status: 'completed', progress: { done: 20, total: 20 }, row_count: 30 });
    expect(answer._meta.dataset_id).not.toBe(input);
    expect(answer._meta.would_charge_credits).toBe(20);
    // Only the range asked the first provider.
    expect(calls['mailfinder.find']).toBe(20);
    const out = await rowsOf(key, answer._meta.dataset_id);
    expect(out).toHaveLength(30);
    for (const [i, row] of out.entries()) {
      if (i < 5 || i >= 25) expect(row).toEqual(rows[i]);
      else expect(row.steps.length).toBeGreaterThan(0);
    }
    const hits = out.filter((row) => row.hit).length;
    expect(answer.summary).toMatchObject({
      rows: 30,
      in_range: 20,
      passed_through: 10,
      enriched: hits,
      not_reached: 0,
    });
    expect(answer._meta.credits_charged).toBe(hits);
    // The input dataset is left as it was.
    expect(await rowsOf(key, input)).toEqual(rows);

    // in_place writes into the input dataset itself.
    const inPlace = await run(key, {
      input,
      steps: [{ capability: 'email_enrichment' }],
      range: '0:5',
      in_place: true,
    });
    expect(inPlace.body._meta).toMatchObject({ status: 'completed', dataset_id: input });
    const updated = await rowsOf(key, input);
    for (const [i, row] of updated.entries()) {
      if (i < 5) expect(row.steps.length).toBeGreaterThan(0);
      else expect(row).toEqual(rows[i]);
    }
    await billedOnce(key, hits + updated.filter((row) => row.hit).length);
  });

  test('rule 1: estimate, dry_run and preview spend nothing and call no vendor', async () => {
    const key = await workspace();
    const rows = await peopleRows(5100, 12);
    const { result, calls } = await callsDuring(async () => [
      await run(key, { input_rows: rows, steps: ['email_enrichment', 'phone_enrichment'], estimate: true }),
      await run(key, { input_rows: rows, specs: ['email_enrichment'], range: '2:10', dry_run: true }),
      await run(key, { input_rows: rows, waterfalls: ['email_enrichment'], preview: true }),
    ]);
    expect(calls).toEqual({});
    const [estimate, dryRun, preview] = result;
    expect(estimate!.status).toBe(200);
    expect(estimate!.body).toMatchObject({ status: 'estimate', in_range: 12, _meta: { credits_charged: 0 } });
    expect(estimate!.body._meta.would_charge_credits).toBeGreaterThan(12);
    expect(dryRun!.body).toMatchObject({ status: 'dry_run', in_range: 8, _meta: { would_charge_credits: 8 } });
    expect(dryRun!.body.plan[0]).toMatchObject({
      step: 'email_enrichment',
      chain: ['mailfinder.find', 'bulkmail.submit', 'reachout.submit'],
    });
    expect(preview!.body.preview).toHaveLength(3);
    expect(preview!.body.preview[0].steps.email_enrichment['mailfinder.find']).toMatchObject({
      domain: rows[0]!.company_domain,
    });
    expect(await charges(key)).toEqual([]);
    expect((await settled(key)).reserved).toBe(0);
  });

  test('rule 2: a balance short of the batch runs with partial_budget and stops cleanly; short of one row is 402', async () => {
    const key = await workspace();
    // Nearly every row hits: 100 credits cover about 100 of the 150 rows.
    await knobs('mailfinder', { hit_rate_multiplier: 100 });
    const rows = await peopleRows(6000, 150);
    const first = await run(key, { input_rows: rows, steps: ['email_enrichment'] });
    expect(first.status).toBe(200);
    const answer = first.body._meta.status === 'running' ? await ended(key, first.body.run_id) : first.body;
    expect(answer._meta.warnings).toEqual([expect.objectContaining({ code: 'partial_budget', rows_in_range: 150 })]);
    expect(answer._meta.progress).toEqual({ done: 150, total: 150 });
    const out = await rowsOf(key, answer.dataset_id);
    const walked = out.filter((row) => Array.isArray(row.steps));
    const hits = out.filter((row) => row.hit).length;
    expect(answer.summary.not_reached).toBe(150 - walked.length);
    expect(answer.summary.not_reached).toBeGreaterThan(0);
    // Rows not reached are untouched.
    for (const [i, row] of out.entries()) if (!Array.isArray(row.steps)) expect(row).toEqual(rows[i]);
    // The run went on until the credits ran out, and not past them.
    expect(hits).toBe(100);
    expect(answer._meta.credits_charged).toBe(hits);
    await billedOnce(key, hits);

    // Less than one row's worst case left: refused before any vendor call, nothing held or charged,
    // no output dataset left behind.
    const datasets = async () => (await api(rde, 'GET', '/api/v2/datasets', { key })).body.total as number;
    const held = await datasets();
    const { result: refused, calls } = await callsDuring(() =>
      run(key, { input_rows: rows.slice(0, 5), steps: ['email_enrichment'] }),
    );
    expect(refused.status).toBe(402);
    expect(refused.body.error).toBe('insufficient_credits');
    // No payment provider configured: nowhere to pay (runs-checkout.test.ts has the other case).
    expect(refused.body).not.toHaveProperty('checkout_url');
    expect(calls).toEqual({});
    expect(await datasets()).toBe(held);
    await billedOnce(key, hits);
  });

  test('rule 3: detach answers a handle at once; GET polls it to completed with the summary, columns and a sample', async () => {
    const key = await workspace();
    await knobs('mailfinder', { latency_ms: { median: 1500, p95: 1500 } });
    const rows = await peopleRows(7000, 40);
    const response = await run(key, { input_rows: rows, steps: ['email_enrichment'], detach: true });
    expect(response.status).toBe(200);
    const handle = response.body._meta;
    expect(handle).toMatchObject({ status: 'running', progress: { total: 40 } });
    expect(handle.run_id).toMatch(/^enr_/);
    expect(handle.dataset_id).toMatch(/^ds_/);
    expect(handle.poll_after_s).toBeGreaterThan(0);
    // Another workspace cannot see it.
    expect((await poll(await workspace(), handle.run_id)).status).toBe(404);

    const done = await ended(key, handle.run_id);
    expect(done._meta).toMatchObject({ status: 'completed', progress: { done: 40, total: 40 } });
    expect(done.sample).toHaveLength(5);
    expect(done.columns).toEqual(expect.arrayContaining(['name', 'email', 'hit', 'steps']));
    const hits = (await rowsOf(key, handle.dataset_id)).filter((row) => row.hit).length;
    expect(done.summary).toMatchObject({ in_range: 40, enriched: hits });
    expect(done._meta.credits_charged).toBe(hits);
    await billedOnce(key, hits);
  });

  test('rule 3: a run whose rows cannot be written ends failed with _meta.error; only what was delivered is billed', async () => {
    const key = await workspace();
    await knobs('mailfinder', { latency_ms: { median: 1000, p95: 1000 } });
    await knobs('bulkmail', { hit_rate_multiplier: 0 });
    // No LinkedIn URL: the chain is MailFinder, then BulkMail (which finds nothing here).
    const rows = (await peopleRows(7100, 60)).map(({ name, company_domain }) => ({ name, company_domain }));
    const response = await run(key, { input_rows: rows, steps: ['email_enrichment'], detach: true });
    expect(response.body._meta.status).toBe('running');
    // The output dataset is deleted under the run: its chunks can no longer read or write their rows.
    expect((await api(rde, 'DELETE', `/api/v2/datasets/${response.body._meta.dataset_id}`, { key })).status).toBe(200);
    const failed = await ended(key, response.body._meta.run_id);
    expect(failed._meta).toMatchObject({ status: 'failed', progress: { done: 60, total: 60 } });
    expect(failed._meta.error).toMatch(/^rows \d+-\d+ could not be enriched: /);
    expect(failed.summary.not_reached).toBeGreaterThan(0);
    await billedOnce(key, failed._meta.credits_charged);
  });

  test('rule 4: identical rows, steps and range within 15 minutes reattach at 0; another range bills anew', async () => {
    const key = await workspace();
    const rows = await peopleRows(8000, 20);
    const body = { input_rows: rows, steps: ['email_enrichment'], range: '0:10' };
    const first = await run(key, body);
    expect(first.body._meta).toMatchObject({ status: 'completed' });
    const charged = first.body._meta.credits_charged as number;
    const { result: again, calls } = await callsDuring(() => run(key, body));
    expect(again.body._meta).toMatchObject({
      run_id: first.body.run_id,
      dataset_id: first.body.dataset_id,
      replayed: true,
      credits_charged: 0,
    });
    expect(calls).toEqual({});
    const { result: other, calls: otherCalls } = await callsDuring(() => run(key, { ...body, range: '10:20' }));
    expect(other.body._meta.run_id).not.toBe(first.body.run_id);
    expect(other.body._meta.replayed).toBeUndefined();
    expect(otherCalls['mailfinder.find']).toBe(10);
    await billedOnce(key, charged + (other.body._meta.credits_charged as number));
  });

  test('steps: a tool.method step calls the method once per row with its arguments read from row columns; each hit billed once', async () => {
    const key = await workspace();
    const rows = (await Promise.all([0, 1, 2].map((i) => person(9300 + i)))).map((p) => ({
      first: p.firstName,
      last: p.lastName,
      company_domain: p.company.domain,
    }));
    const find = {
      tool: 'mailfinder',
      method: 'find',
      args: { first_name: 'first', last_name: { column: 'last' }, domain: 'company_domain' },
    };
    const checks = await callsDuring(async () => [
      await run(key, { input_rows: rows, steps: [find], estimate: true }),
      await run(key, { input_rows: rows, steps: [find], preview: true }),
    ]);
    expect(checks.calls).toEqual({});
    const [estimate, preview] = checks.result;
    expect(estimate!.body._meta).toMatchObject({
      credits_charged: 0,
      would_charge_credits: 3,
      would_call: 'mailfinder.find',
    });
    expect(preview!.body.preview[0].steps['mailfinder.find']['mailfinder.find']).toEqual({
      first_name: rows[0]!.first,
      last_name: rows[0]!.last,
      domain: rows[0]!.company_domain,
    });

    const { result, calls } = await callsDuring(() => run(key, { input_rows: rows, steps: [find] }));
    expect(result.status).toBe(200);
    expect(calls).toEqual({ 'mailfinder.find': 3 });
    const out = (await rowsOf(key, result.body._meta.dataset_id)) as unknown as Record<string, unknown>[];
    expect(out).toHaveLength(3);
    const found = out.filter((row) => (row['mailfinder.find'] as { data?: { email?: string } }).data?.email);
    expect(found.length).toBeGreaterThan(0);
    for (const [i, row] of out.entries()) expect(row).toMatchObject(rows[i]!);
    expect(result.body._meta).toMatchObject({ status: 'completed', credits_charged: found.length });
    expect(result.body.summary.by_step['mailfinder.find']).toEqual({ hits: found.length });
    await billedOnce(key, found.length);
  });

  test('steps: an unknown tool method, a required argument not mapped or an undeclared one is 422 before any charge', async () => {
    const key = await workspace();
    const rows = await peopleRows(9400, 2);
    const bad = [
      { input_rows: rows, steps: [{ tool: 'mailfinder', method: 'guess', args: {} }] },
      { input_rows: rows, steps: ['nosuchtool.find'] },
      { input_rows: rows, steps: [{ tool: 'mailfinder', method: 'find', args: { first_name: 'name' } }] },
      {
        input_rows: rows,
        steps: [{ tool: 'mailfinder', method: 'find', args: { first_name: 'a', last_name: 'b', shoe: 'c' } }],
      },
    ];
    const { result, calls } = await callsDuring(() => Promise.all(bad.map((body) => run(key, body))));
    for (const response of result) {
      expect(response.status).toBe(422);
      expect(response.body.detail).toEqual([expect.objectContaining({ loc: ['body', 'steps', 0] })]);
    }
    expect(result[2]!.body.detail[0].msg).toMatch(/last_name/);
    expect(calls).toEqual({});
    expect(await charges(key)).toEqual([]);
  });

  test('errors: malformed runs are 422 with the validation list, another workspace input is 404; nothing is charged', async () => {
    const key = await workspace();
    const rows = await peopleRows(9000, 3);
    const bad = [
      { input_rows: rows },
      { input_rows: rows, input: 'ds_abc', steps: ['email_enrichment'] },
      { input_rows: rows, steps: ['email_enrichment'], range: '5:2' },
      { input_rows: rows, steps: ['email_enrichment'], range: 'first ten' },
      { input_rows: rows, steps: ['send_flowers'] },
      { input_rows: rows, steps: ['email_enrichment'], in_place: true },
      { input_rows: [1, 2], steps: ['email_enrichment'] },
    ];
    const { result, calls } = await callsDuring(() => Promise.all(bad.map((body) => run(key, body))));
    for (const response of result) {
      expect(response.status).toBe(422);
      expect(Array.isArray(response.body.detail)).toBe(true);
    }
    const foreign = await dataset(await workspace(), rows);
    expect((await run(key, { input: foreign, steps: ['email_enrichment'] })).status).toBe(404);
    expect(calls).toEqual({});
    expect(await charges(key)).toEqual([]);
  });
});
