import { api } from '../e2e/api';
import { mode, startRde, waitUntil, type RunningRde } from '../e2e/harness';
import { enrichmentSupport, JOB_HIT_CHARGE, QUICK_RUNS_ENV, rowOf } from './enrichment-support';
import { runsSupport } from './workflows-runs-support';

jest.setTimeout(300_000);

/** Rows as a client sends them, with a name and an employer domain (the sandbox's people). */
type Row = Record<string, unknown>;

/**
 * Rows into a new dataset, more appended at its row count, an enrichment run over it in place,
 * then its rows read back: every new step kind (decision 0088), each reading the one before.
 */
function datasetPipeline(name: string) {
  const rows = { type: 'array', maxItems: 20, items: { type: 'object' } };
  return {
    name,
    trigger: { type: 'manual' },
    input: { schema: { type: 'object', properties: { first: rows, more: rows }, required: ['first', 'more'] } },
    steps: [
      { id: 'create', uses: 'dataset.create', with: { name: 'leads of {{run.id}}', rows: '{{input.first}}' } },
      {
        id: 'append',
        uses: 'dataset.append',
        with: {
          dataset_id: '{{steps.create.output.id}}',
          rows: '{{input.more}}',
          offset: '{{steps.create.output.row_count}}',
        },
      },
      {
        id: 'enrich',
        uses: 'enrich.run',
        with: { input: '{{steps.create.output.id}}', steps: ['email_enrichment'], in_place: true },
      },
      { id: 'read', uses: 'dataset.rows', with: { dataset_id: '{{steps.create.output.id}}', limit: 100 } },
    ],
    output: { dataset: '{{steps.create.output.id}}', rows: '{{steps.read.output.rows}}' },
  };
}

/**
 * The new steps: `enrich.run` and the dataset operations in stored workflows (decision 0088), and a
 * provider job's charge settled after its workflow step ended still carrying the workflow run's id:
 * the ledger, the sandbox's counters, lint, and another workspace's dataset.
 */
describe(`workflows: enrich.run and dataset steps (${mode})`, () => {
  let rde: RunningRde;
  const { workflows, applied, called, ledger, sum } = runsSupport(() => rde);
  const { workspace, peopleRows, person, knobs, resetKnobs, callsDuring } = enrichmentSupport(() => rde);

  beforeAll(async () => {
    rde = await startRde(QUICK_RUNS_ENV, mode);
  });

  afterAll(async () => {
    await rde?.stop();
  });

  afterEach(() => resetKnobs());

  const rowsOf = async (key: string, datasetId: string) =>
    (await api(rde, 'GET', `/api/v2/datasets/${datasetId}/rows?limit=100`, { key })).body.rows as Row[];

  test('a live run makes the dataset, appends, enriches it and reads it: ledger rows carry the run, sum to its charge', async () => {
    const key = await workspace();
    await knobs('mailfinder', { hit_rate_multiplier: 100 });
    const [first, more] = [await peopleRows(12_000, 3), await peopleRows(12_003, 2)];
    const id = await applied(key, datasetPipeline('pipeline'));
    const { result: done, calls } = await callsDuring(() =>
      called(key, { workflow_id: id, input: { first, more } }, id),
    );
    expect(done).toMatchObject({ status: 'succeeded', error: null });
    const [create, append, enrich, read] = done.steps;
    expect(create.output).toMatchObject({ id: expect.stringMatching(/^ds_/), row_count: 3, sample: first });
    expect(append.output).toMatchObject({ id: create.output.id, row_count: 5 });
    // The step's output is the run record as GET /enrich/runs/{run_id} shows it once ended.
    const record = (await api(rde, 'GET', `/enrich/runs/${enrich.output.run_id}`, { key })).body;
    expect(enrich.output).toEqual(record);
    expect(record).toMatchObject({
      status: 'completed',
      dataset_id: create.output.id,
      progress: { done: 5, total: 5 },
    });
    expect(enrich.charged_credits).toBe(record._meta.charged);
    expect(enrich.charged_credits).toBeGreaterThan(0);
    // Every row was asked of the chain's first vendor once, and read back enriched in order.
    expect(calls['mailfinder.find']).toBe(5);
    expect(read.output).toMatchObject({ offset: 0, limit: 100, total: 5 });
    expect(read.output.rows.map((row: Row) => row.name)).toEqual([...first, ...more].map((row) => row.name));
    expect(read.output.rows.every((row: Row) => Array.isArray(row.steps))).toBe(true);
    expect(done.output).toEqual({ dataset: create.output.id, rows: read.output.rows });
    expect([create, append, read].map((step) => step.charged_credits)).toEqual([0, 0, 0]);

    const charges = (await ledger(key)).filter((row) => row.kind !== 'grant');
    expect(charges.length).toBeGreaterThan(0);
    expect(new Set(charges.map((row) => row.workflow_run_id))).toEqual(new Set([done.id]));
    expect(sum(charges.map((row) => -row.amount))).toBe(done.charged_credits);
    expect(done.charged_credits).toBe(enrich.charged_credits);
  });

  test('dry_run: enrich.run answers its estimate, starts no run, calls no vendor and charges nothing', async () => {
    const key = await workspace();
    const [first, more] = [await peopleRows(12_010, 2), await peopleRows(12_012, 2)];
    const id = await applied(key, datasetPipeline('pipeline-dry'));
    const { result: done, calls } = await callsDuring(() =>
      called(key, { workflow_id: id, input: { first, more }, mode: 'dry_run' }, id),
    );
    expect(done).toMatchObject({ status: 'succeeded', mode: 'dry_run', charged_credits: 0 });
    const enrich = done.steps[2];
    expect(enrich.output).toMatchObject({ status: 'estimate', rows: 4, _meta: { credits_charged: 0 } });
    expect(enrich.output._meta.run_id).toBeUndefined();
    expect(enrich.would_charge_credits).toBe(enrich.output._meta.would_charge_credits);
    expect(done.would_charge_credits).toBe(enrich.would_charge_credits);
    expect(enrich.would_charge_credits).toBeGreaterThan(0);
    expect(calls).toEqual({});
    // The free dataset steps ran (a dry run's later steps estimate on real rows), nothing enriched.
    expect((await rowsOf(key, done.steps[0].output.id)).map((row) => Object.hasOwn(row, 'steps'))).toEqual([
      false,
      false,
      false,
      false,
    ]);
    expect((await ledger(key)).filter((row) => row.kind !== 'grant')).toEqual([]);
  });

  test("another workspace's dataset is not found: the steps fail with a clear error and charge nothing", async () => {
    const [owner, other] = [await workspace(), await workspace()];
    const created = await api(rde, 'POST', '/api/v2/datasets', {
      key: owner,
      body: { rows: await peopleRows(12_020, 2) },
    });
    const theirs = created.body.id as string;
    const id = await applied(other, {
      name: 'not-mine',
      trigger: { type: 'manual' },
      steps: [
        { id: 'read', uses: 'dataset.rows', with: { dataset_id: theirs }, on_error: 'continue' },
        {
          id: 'append',
          uses: 'dataset.append',
          with: { dataset_id: theirs, rows: [{ name: 'x' }] },
          on_error: 'continue',
        },
        { id: 'enrich', uses: 'enrich.run', with: { input: theirs, steps: ['email_enrichment'] } },
      ],
    });
    const { result: done, calls } = await callsDuring(() => called(other, { workflow_id: id }, id));
    expect(done).toMatchObject({ status: 'failed', charged_credits: 0, error: { code: 'not_found', step: 'enrich' } });
    expect(done.steps.map((step: any) => [step.status, step.error?.code])).toEqual([
      ['failed', 'not_found'],
      ['failed', 'not_found'],
      ['failed', 'not_found'],
    ]);
    expect(done.steps[0].error.message).toMatch(/not found/i);
    expect(calls).toEqual({});
    expect((await ledger(other)).filter((row) => row.kind !== 'grant')).toEqual([]);
    expect((await api(rde, 'GET', `/api/v2/datasets/${theirs}`, { key: owner })).body.row_count).toBe(2);
  });

  test('a with that resolves to an invalid call fails its step with invalid_payload; a stale append offset is refused', async () => {
    const key = await workspace();
    const id = await applied(key, {
      name: 'bad-rows',
      trigger: { type: 'manual' },
      steps: [
        { id: 'create', uses: 'dataset.create', with: { rows: '{{input.rows}}' }, on_error: 'continue' },
        { id: 'made', uses: 'dataset.create', with: { rows: [{ name: 'a' }, { name: 'b' }] } },
        {
          id: 'append',
          uses: 'dataset.append',
          with: { dataset_id: '{{steps.made.output.id}}', rows: [{}], offset: 0 },
        },
      ],
    });
    const done = await called(key, { workflow_id: id, input: { rows: 'not a list' } }, id);
    expect(done.steps.map((step: any) => [step.id, step.status, step.error?.code ?? null])).toEqual([
      ['create', 'failed', 'invalid_payload'],
      ['made', 'succeeded', null],
      ['append', 'failed', 'append_conflict'],
    ]);
    expect(done.steps[0].error.message).toMatch(/rows/);
    expect(done.steps[2].error.message).toMatch(/held 2 rows, not 0/);
    const listed = (await api(rde, 'GET', '/api/v2/datasets', { key })).body;
    expect(listed.datasets.map((dataset: Row) => [dataset.id, dataset.row_count])).toEqual([
      [done.steps[1].output.id, 2],
    ]);
  });

  test("a provider job that outlives its enrichment step's poll budget is charged later under the workflow run's id", async () => {
    const key = await workspace();
    await knobs('dialbook', { hit_rate_multiplier: 0 });
    await knobs('ringdirect', { hit_rate_multiplier: 5, job_duration_ms: { median: 5000, p95: 5000 } });
    const subject = await person(12_030);
    const id = await applied(key, {
      name: 'phone-later',
      trigger: { type: 'manual' },
      steps: [{ id: 'phone', uses: 'enrich.phone_enrichment', with: { payload: rowOf(subject) } }],
    });
    const done = await called(key, { workflow_id: id }, id);
    const [row] = done.steps[0].output.results;
    expect(row).toMatchObject({ reason: 'still_enriching', job_id: expect.any(String) });
    expect(done).toMatchObject({ status: 'succeeded', charged_credits: 0 });
    const job = async () => (await api(rde, 'GET', `/enrich/jobs/ringdirect/${row.job_id}`, { key })).body;
    await waitUntil(async () => (await job()).status === 'settled', 60_000, 250);
    expect(await job()).toMatchObject({ charged: 3, result: { phone: subject.mobilePhone, hit: true } });
    const charges = (await ledger(key)).filter((entry) => entry.kind !== 'grant');
    expect(charges).toEqual([expect.objectContaining({ id: expect.stringMatching(JOB_HIT_CHARGE), amount: -3 })]);
    expect(charges[0]!.workflow_run_id).toBe(done.id);
  });

  test('lint refuses a bad with of each new step, with the path and what the step takes', async () => {
    const key = await workspace();
    const lint = async (uses: string, given: Record<string, unknown>) => {
      const definition = { name: 'bad', trigger: { type: 'manual' }, steps: [{ id: 's', uses, with: given }] };
      return (await workflows(key, 'POST', '/lint', definition)).body;
    };
    const cases: [string, Record<string, unknown>, Record<string, unknown>][] = [
      [
        'enrich.run',
        { steps: ['email_enrichment'], tone: 'x' },
        { unknown: ['tone'], missing_one_of: [['input', 'input_rows']] },
      ],
      [
        'enrich.run',
        { input: 'ds_x', steps: 'email_enrichment' },
        { invalid: [expect.objectContaining({ key: 'steps' })] },
      ],
      ['dataset.create', { name: 7 }, { missing: ['rows'], invalid: [expect.objectContaining({ key: 'name' })] }],
      ['dataset.append', { rows: [{ a: 1 }] }, { missing: ['dataset_id'] }],
      [
        'dataset.rows',
        { dataset_id: 'ds_x', limit: 5000, page: 2 },
        { unknown: ['page'], invalid: [expect.objectContaining({ key: 'limit' })] },
      ],
    ];
    for (const [uses, given, details] of cases) {
      const linted = await lint(uses, given);
      expect(linted.valid).toBe(false);
      expect(linted.problems).toEqual([
        expect.objectContaining({ path: '/steps/0/with', code: 'invalid_payload', ...details }),
      ]);
    }
    // The schema route answers what each new step takes; the apply refused by lint stores nothing.
    for (const uses of ['enrich.run', 'dataset.create', 'dataset.append', 'dataset.rows']) {
      const schema = await workflows(key, 'GET', `/schema?subject=${uses}`);
      expect(schema.status).toBe(200);
      expect(schema.body).toMatchObject({ subject: uses, schema: { type: 'object', additionalProperties: false } });
    }
    expect((await workflows(key, 'GET', '/schema?subject=dataset.append')).body.schema.required).toEqual([
      'dataset_id',
      'rows',
    ]);
    const refused = await workflows(key, 'POST', '/apply', {
      name: 'bad',
      trigger: { type: 'manual' },
      steps: [{ id: 's', uses: 'dataset.rows', with: {} }],
    });
    expect(refused.status).toBe(422);
    expect((await workflows(key, 'GET', '')).body.total).toBe(0);
  });
});
