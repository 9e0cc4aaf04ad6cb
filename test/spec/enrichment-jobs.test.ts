import { api } from '../e2e/api';
import { mode, startRde, waitUntil, type RunningRde } from '../e2e/harness';
import { enrichmentSupport, JOB_HIT_CHARGE, rowOf, type EnrichedRow } from './enrichment-support';

jest.setTimeout(240_000);

/**
 * The spec's Enrichment waterfalls rule 8 (provider jobs) and Events 2 (vendor callbacks), through
 * the gateway: a job still open at the end of the poll budget, resumed for free, finished by the
 * service and billed once however many callbacks and polls saw it finish.
 */
describe(`enrichment provider jobs (${mode})`, () => {
  let rde: RunningRde;
  const { workspace, person, knobs, resetKnobs, callsDuring, calls, settled, charges, datasetRows } = enrichmentSupport(
    () => rde,
  );

  beforeAll(async () => {
    rde = await startRde({
      RDE_SANDBOX_LATENCY_SCALE: '0',
      RDE_SANDBOX_RATE_LIMITS: 'false',
      RDE_ENRICH_POLL_BUDGET_MS: '1500',
      RDE_ENRICH_POLL_INTERVAL_MS: '200',
    });
  });

  afterAll(async () => {
    await rde?.stop();
  });

  afterEach(() => resetKnobs());

  /** A one-row phone_enrichment whose only answer comes from a RingDirect job that outlives the poll budget. */
  async function openJob(key: string, jobMs: number, index: number) {
    await knobs('dialbook', { hit_rate_multiplier: 0 });
    await knobs('ringdirect', { hit_rate_multiplier: 5, job_duration_ms: { median: jobMs, p95: jobMs } });
    const subject = await person(index);
    const response = await api(rde, 'POST', '/enrich/phone_enrichment', { key, body: { payload: rowOf(subject) } });
    expect(response.status).toBe(200);
    const row = response.body.results[0] as EnrichedRow;
    const jobId = row.job_id as string;
    return { response, row, jobId, subject };
  }

  const jobOf = (key: string, jobId: string) => api(rde, 'GET', `/enrich/jobs/ringdirect/${jobId}`, { key });

  test('rule 8: a job open at the end of the poll budget is still_enriching at 0, resumed free, then settled once into the row', async () => {
    const key = await workspace();
    const { response, row, jobId, subject } = await openJob(key, 4000, 11_000);
    const resume = { tool: 'enrich_jobs', method: 'ringdirect', id_arg: 'job_id' };
    expect(row.steps).toEqual([
      { step: 'dialbook.find', outcome: 'no_result', charged: 0 },
      { step: 'ringdirect.submit', outcome: 'still_enriching', charged: 0, job_id: jobId, resume },
    ]);
    expect(row).toMatchObject({ phone: null, hit: false, job_id: jobId, resume, reason: 'still_enriching' });
    expect(row.hint).toEqual(expect.stringContaining(`/enrich/jobs/ringdirect/${jobId}`));
    expect(response.body._meta).toMatchObject({
      charged: 0,
      settled: false,
      pending_jobs: [{ provider: 'ringdirect', job_id: jobId, fetch: `/enrich/jobs/ringdirect/${jobId}` }],
    });

    // Both resumes answer the job record and cost nothing; another workspace sees no such job.
    const pending = await jobOf(key, jobId);
    expect(pending.body).toMatchObject({ provider: 'ringdirect', job_id: jobId, status: 'pending' });
    const resumed = await api(rde, 'POST', `/tools/${resume.tool}/${resume.method}`, {
      key,
      body: { payload: { [resume.id_arg]: jobId } },
    });
    expect(resumed.status).toBe(200);
    expect(resumed.body).toMatchObject({ job_id: jobId });
    expect((await jobOf(await workspace(), jobId)).status).toBe(404);

    await waitUntil(async () => (await jobOf(key, jobId)).body.status === 'settled', 30_000, 250);
    const done = (await jobOf(key, jobId)).body;
    expect(done).toMatchObject({ status: 'settled', charged: 3, result: { phone: subject.mobilePhone, hit: true } });
    const [stored] = await datasetRows(key, response.body._meta.dataset_id);
    expect(stored).toMatchObject({ phone: subject.mobilePhone, hit: true });
    expect(stored!.steps.at(-1)).toMatchObject({
      step: 'ringdirect.submit',
      outcome: 'hit',
      charged: 3,
      job_id: jobId,
    });
    const balance = await settled(key);
    expect(balance).toMatchObject({ balance: 97, reserved: 0 });
    expect(await charges(key)).toEqual([
      { id: expect.stringMatching(JOB_HIT_CHARGE), kind: expect.any(String), amount: 3 },
    ]);
  });

  test('events 2: a job finished by callback is billed once, with the callback sent three more times and the poller running', async () => {
    const key = await workspace();
    const { jobId } = await openJob(key, 3000, 11_001);
    const sandboxJob = async () =>
      (await (await fetch(`${rde.sandboxUrl}/_admin/jobs/ringdirect/${jobId}`)).json()) as {
        done: boolean;
        callback_url: string;
      };
    const callbackUrl = (await sandboxJob()).callback_url;
    expect(callbackUrl).toMatch(new RegExp(`/api/v2/webhooks/provider/ringdirect/[A-Za-z0-9_-]{22}$`));
    // The vendor calls back itself when the job is done; three more copies arrive with any body.
    await waitUntil(async () => (await sandboxJob()).done, 30_000);
    const answers = await Promise.all(
      [1, 2, 3].map(() =>
        fetch(callbackUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{"state":"finished"}',
        }),
      ),
    );
    for (const answer of answers)
      expect({ status: answer.status, body: await answer.json() }).toEqual({ status: 200, body: { ok: true } });
    await waitUntil(async () => (await jobOf(key, jobId)).body.status === 'settled', 30_000, 250);
    await settled(key);
    expect(await charges(key)).toEqual([
      { id: expect.stringMatching(JOB_HIT_CHARGE), kind: expect.any(String), amount: 3 },
    ]);
    // Later callbacks wake nothing: the job is settled and no vendor is asked again.
    const { calls: after } = await callsDuring(() => fetch(callbackUrl, { method: 'POST', body: 'x' }));
    expect(after).toEqual({});
  });

  test('events 2: a forged nonce gets the same 200, calls nobody and charges nothing', async () => {
    const key = await workspace();
    const before = await calls();
    const forged = await Promise.all(
      ['ringdirect/AAAAAAAAAAAAAAAAAAAAAA', 'reachout/not-a-nonce', 'nope/x'].map((path) =>
        fetch(`${rde.baseUrl}/api/v2/webhooks/provider/${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{"lookup_id":"lk_1","status":"completed"}',
        }),
      ),
    );
    for (const answer of forged)
      expect({ status: answer.status, body: await answer.json() }).toEqual({ status: 200, body: { ok: true } });
    expect(await calls()).toEqual(before);
    expect(await charges(key)).toEqual([]);
  });
});
