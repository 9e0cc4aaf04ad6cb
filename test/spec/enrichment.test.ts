import { api } from '../e2e/api';
import { mode, startRde, waitUntil, type RunningRde } from '../e2e/harness';
import {
  chargedOf,
  enrichmentSupport,
  QUICK_ENRICHMENT_ENV,
  rowOf,
  type EnrichedRow,
  type Step,
} from './enrichment-support';

jest.setTimeout(240_000);

/**
 * The spec's Enrichment waterfalls section, rule by rule, through the gateway: the body, the
 * ledger and the sandbox vendors' counters. Vendors answer at once and without rate limits; tests
 * that need a slow or a certain vendor set its knobs and put them back.
 */
describe(`enrichment waterfalls (${mode})`, () => {
  let rde: RunningRde;
  const support = enrichmentSupport(() => rde);
  const { workspace, person, staffOf, knobs, resetKnobs, callsDuring, settled, charges, datasetRows } = support;

  beforeAll(async () => {
    rde = await startRde(QUICK_ENRICHMENT_ENV);
  });

  afterAll(async () => {
    await rde?.stop();
  });

  afterEach(() => resetKnobs());

  const enrich = (key: string, capability: string, body: object, path = `/enrich/${capability}`) =>
    api(rde, 'POST', path, { key, body });
  const people = (from: number, count: number) =>
    Promise.all(Array.from({ length: count }, (_, i) => person(from + i)));
  /**
   * Enriches and answers every row once its walk ended: from the answer when the run finished in
   * time, else from the dataset the rows land in (rule 6), however long the vendors take.
   */
  async function enrichAll(key: string, capability: string, body: object, path?: string) {
    const response = await enrich(key, capability, body, path);
    expect(response.status).toBe(200);
    if (response.body._meta.status === 'completed') return { response, rows: response.body.results as EnrichedRow[] };
    const datasetId = response.body._meta.dataset_id as string;
    await waitUntil(async () => (await datasetRows(key, datasetId)).every((row) => row.steps.length > 0), 60_000, 250);
    return { response, rows: await datasetRows(key, datasetId) };
  }

  /** The ledger holds exactly `charged`, each charge once, and no hold is left open. */
  async function expectBilledOnce(key: string, charged: number) {
    const balance = await settled(key);
    const ledger = await charges(key);
    const total = ledger.reduce((sum, entry) => sum + entry.amount, 0);
    expect(Math.round(total * 1000)).toBe(Math.round(charged * 1000));
    expect(new Set(ledger.map((entry) => entry.id)).size).toBe(ledger.length);
    expect(balance).toMatchObject({ balance: 100 - charged, reserved: 0 });
    return ledger;
  }

  test('rule 1: each row stops at its first real hit; only the hitting step is billed', async () => {
    const key = await workspace();
    const rows = (await people(2000, 12)).map((p) => rowOf(p));
    const { result, calls } = await callsDuring(() => enrichAll(key, 'email_enrichment', { rows }));
    expect(result.response.body._meta).toMatchObject({ row_count: 12, settled: false });
    const enriched = result.rows;
    let hits = 0;
    for (const row of enriched) {
      const hitAt = row.steps.findIndex((step) => step.outcome === 'hit');
      // Nothing after the hit; every step before it charged 0; only the hit charged.
      if (hitAt >= 0) expect(row.steps).toHaveLength(hitAt + 1);
      for (const [i, step] of row.steps.entries()) expect(step.charged).toBe(i === hitAt ? 1 : 0);
      expect(row.hit).toBe(hitAt >= 0);
      hits += row.hit ? 1 : 0;
    }
    expect(hits).toBeGreaterThan(0);
    // Every row asked the first provider once; the unanswered went on, in one batch job.
    expect(calls['mailfinder.find']).toBe(12);
    expect(calls['bulkmail.submit'] ?? 0).toBeLessThanOrEqual(1);
    const ledger = await expectBilledOnce(key, hits);
    expect(ledger).toHaveLength(hits);
  });

  test('rule 2: personal_email drops work addresses at 0 and bills the validator once per address', async () => {
    const key = await workspace();
    // Hooli staff's "personal" address is their work address; ordinary people have free-mail ones.
    const hooli = (await staffOf('Hooli', 4)).map((p) => ({
      name: p.full_name,
      linkedin_url: p.linkedin_url,
      company_domain: p.job_company_website,
    }));
    const ordinary = (await people(3000, 6)).map((p) => rowOf(p));
    await knobs('persona', { hit_rate_multiplier: 5 });
    const rows = [...hooli, ...ordinary];
    const { result, calls } = await callsDuring(() => enrichAll(key, 'personal_email', { rows }));
    const enriched = result.rows;
    for (const row of enriched.slice(0, hooli.length)) {
      expect(row.steps[0]).toMatchObject({ step: 'persona.lookup', outcome: 'corporate_domain', charged: 0 });
    }
    for (const row of enriched) {
      for (const step of row.steps) {
        if (['corporate_domain', 'company_mismatch', 'invalid_email'].includes(step.outcome))
          expect(step.charged).toBe(0);
      }
      if (row.hit) expect(String(row.personal_email)).not.toMatch(/@hooli\.com$/);
    }
    // VeriMail costs one credit an address, and each address it checked was asked once.
    const validated = calls['verimail.verify'] ?? 0;
    const ledger = await expectBilledOnce(key, enriched.reduce((sum, row) => sum + chargedOf(row), 0) + validated);
    // The validator: one ledger charge per address it checked, never two for the same address.
    const validations = ledger.filter((entry) => entry.id.includes(':verify:'));
    expect(validations).toHaveLength(calls['verimail.verify'] ?? 0);
    const hits = enriched.filter((row) => row.hit).length;
    expect(ledger).toHaveLength(hits + validations.length);
  });

  test('rule 3: email_enrichment keeps the current employer only; every row says company_match', async () => {
    const key = await workspace();
    // Initech staff recently came from Globex: Reachout still answers their @globex.com address.
    await knobs('bulkmail', { hit_rate_multiplier: 0 });
    await knobs('reachout', { hit_rate_multiplier: 5 });
    const movers = (await staffOf('Initech', 6)).map((p) => ({
      linkedin_url: p.linkedin_url,
      company_domain: 'initech.com',
    }));
    const byName = (await people(4000, 2)).map((p) => ({ name: p.fullName, company_name: p.company.name }));
    const placeholder = {
      ...rowOf(await person(4010)),
      company_domain: 'linkedin.com/company/whatever',
      company_name: 'n/a',
    };
    const { rows: enriched } = await enrichAll(key, 'email_enrichment', { rows: [...movers, ...byName, placeholder] });
    for (const row of enriched.slice(0, movers.length)) {
      expect(row).toMatchObject({ company_match_basis: 'company_domain' });
      const mismatch = row.steps.find((step) => step.outcome === 'company_mismatch');
      expect(mismatch).toMatchObject({ step: 'reachout.submit', charged: 0 });
      expect(row.email).toBeNull();
      expect(row.company_match).toBeNull();
    }
    for (const row of enriched.slice(movers.length, movers.length + 2)) {
      expect(row.company_match_basis).toBe('company_name');
      if (row.hit) expect(typeof row.company_match).toBe('boolean');
    }
    expect(enriched.at(-1)).toMatchObject({ company_match_basis: 'company_name' });
    expect(enriched.at(-1)!.steps[0]!.outcome).not.toBe('company_mismatch');
    await expectBilledOnce(
      key,
      enriched.reduce((sum, row) => sum + chargedOf(row), 0),
    );
  });

  test('rule 4: linkedin_profile wants dated experience of the right person', async () => {
    const key = await workspace();
    await knobs('profilely', { hit_rate_multiplier: 5 });
    await knobs('litepro', { hit_rate_multiplier: 5 });
    const soylent = (await staffOf('Soylent', 2)).map((p) => ({ name: p.full_name, linkedin_url: p.linkedin_url }));
    const piedPiper = (await staffOf('Pied Piper', 2)).map((p) => ({
      name: p.full_name,
      linkedin_url: p.linkedin_url,
    }));
    const ordinary = (await people(5000, 3)).map((p) => rowOf(p));
    const rows = [...soylent, ...piedPiper, ...ordinary];
    const { result, calls } = await callsDuring(() => enrichAll(key, 'linkedin_profile', { rows }));
    const enriched = result.rows;
    for (const row of enriched.slice(0, 2)) {
      expect(row.steps).toEqual([
        expect.objectContaining({ outcome: 'identity_mismatch', charged: 0, matched_name: expect.any(String) }),
      ]);
      expect(row.matched_name).not.toBe(row.name);
      expect(row.profile).toBeNull();
    }
    for (const row of enriched.slice(2, 4)) {
      expect(row.hit).toBe(false);
      expect(row.steps.map((step) => [step.outcome, step.detail, step.charged])).toEqual([
        ['no_result', 'no_dated_experience', 0],
        ['no_result', 'no_dated_experience', 0],
      ]);
    }
    for (const row of enriched.slice(4)) {
      expect(row).toMatchObject({ hit: true, steps: [{ step: 'profilely.profile', outcome: 'hit', charged: 1 }] });
      const { experience } = row.profile as {
        experience: { start: string; is_current: boolean; duration_months?: number }[];
      };
      expect(experience[0]!.is_current).toBe(true);
      const starts = experience.map((job) => job.start);
      expect([...starts].sort().reverse()).toEqual(starts);
      expect(experience.every((job) => typeof job.duration_months === 'number')).toBe(true);
    }
    // The someone-else rows ended at the first provider: LitePro was asked only for Pied Piper's.
    expect(calls['litepro.enrich']).toBe(2);
    await expectBilledOnce(key, 3);
  });

  test('phone_enrichment fills phone with the same hit and billing discipline', async () => {
    const key = await workspace();
    const rows = (await people(6000, 4)).map((p) => rowOf(p));
    const truth = await people(6000, 4);
    const { rows: enriched } = await enrichAll(key, 'phone_enrichment', { rows });
    for (const [i, row] of enriched.entries()) {
      if (row.hit) expect(row.phone).toBe(truth[i]!.mobilePhone);
      else expect(row.phone).toBeNull();
      for (const step of row.steps) expect(step.charged).toBe(step.outcome === 'hit' ? 3 : 0);
    }
    await expectBilledOnce(key, enriched.filter((row) => row.hit).length * 3);
  });

  test('rule 5: a 100-row batch goes to the batch vendor as one job, answered out of order, mapped by key', async () => {
    const key = await workspace();
    await knobs('mailfinder', { hit_rate_multiplier: 0 });
    await knobs('reachout', { hit_rate_multiplier: 0 });
    const truth = await people(7000, 100);
    const rows = truth.map((p) => rowOf(p));
    const { result, calls } = await callsDuring(() => enrichAll(key, 'email_enrichment', { rows }));
    expect(calls['bulkmail.submit']).toBe(1);
    const enriched = result.rows;
    const hits = enriched.filter((row) => row.hit);
    expect(hits.length).toBeGreaterThan(20);
    // Each found address is that row's own person's: results were matched by ref, not by position.
    for (const [i, row] of enriched.entries()) {
      if (row.hit) expect(row.email).toBe(truth[i]!.workEmail);
      expect(row.steps.find((step: Step) => step.step === 'bulkmail.submit')).toBeDefined();
    }
    const ledger = await expectBilledOnce(key, hits.length);
    expect(ledger).toHaveLength(hits.length);
  });

  test('rule 6: a multi-row call answers at once with its dataset and run; rows land as they finish', async () => {
    const key = await workspace();
    await knobs('mailfinder', { hit_rate_multiplier: 0 });
    await knobs('bulkmail', { job_duration_ms: { median: 2000, p95: 2000 } });
    const rows = (await people(8000, 20)).map((p) => rowOf(p));
    const response = await enrich(key, 'email_enrichment', { rows });
    expect(response.status).toBe(200);
    expect(response.body._meta).toMatchObject({
      status: 'running',
      run_id: expect.stringMatching(/^enr_/),
      dataset_id: expect.stringMatching(/^ds_/),
      row_count: 20,
      progress: { total: 20 },
      settled: false,
    });
    const datasetId = response.body._meta.dataset_id;
    await waitUntil(async () => (await datasetRows(key, datasetId)).every((row) => row.steps.length > 0), 30_000);
    const enriched = await datasetRows(key, datasetId);
    await expectBilledOnce(
      key,
      enriched.reduce((sum, row) => sum + chargedOf(row), 0),
    );
  });

  test('rule 7: an identical rows batch within 15 minutes replays the first dataset at 0, calling nobody', async () => {
    const key = await workspace();
    const rows = (await people(9000, 5)).map((p) => rowOf(p));
    const first = await enrichAll(key, 'email_enrichment', { rows });
    const paid = await settled(key);
    // The same rows, keys in another order: the same batch.
    const reordered = rows.map(({ linkedin_url, company_domain, name }) => ({ linkedin_url, company_domain, name }));
    const { result: replay, calls } = await callsDuring(() =>
      enrich(key, 'email_enrichment', { rows: reordered }, '/tools/email_enrichment'),
    );
    expect(calls).toEqual({});
    expect(replay.body._meta).toMatchObject({
      replayed: true,
      charged: 0,
      credits_charged: 0,
      dataset_id: first.response.body._meta.dataset_id,
      run_id: first.response.body._meta.run_id,
    });
    expect(replay.body.results).toEqual(first.rows);
    expect((await settled(key)).balance).toBe(paid.balance);
    expect(await charges(key)).toHaveLength(first.rows.filter((row) => row.hit).length);
  });

  test('bad input is refused in the spec’s format, charges nothing and calls nobody', async () => {
    const key = await workspace();
    const row = rowOf(await person(9500));
    const { result: refusals, calls } = await callsDuring(() =>
      Promise.all([
        enrich(key, 'email_enrichment', { rows: Array.from({ length: 101 }, () => row) }),
        enrich(key, 'email_enrichment', { rows: [row, 'not a row', [1]] }),
        enrich(key, 'email_enrichment', { rows: [row], payload: row }, '/tools/email_enrichment'),
        enrich(key, 'work_email', { rows: [row] }),
        enrich(key, 'email_enrichment', { dry_run: true }),
        api(rde, 'GET', '/enrich/jobs/reachout/lk_nope', { key }),
        api(rde, 'POST', '/tools/enrich_jobs/reachout', { key, body: { payload: { job_id: 'lk_nope' } } }),
      ]),
    );
    const [tooMany, notObjects, both, unknown, neither, unknownJob, unknownResume] = refusals;
    expect(tooMany.status).toBe(422);
    expect(tooMany.body.detail[0].loc).toEqual(['body', 'rows']);
    expect(notObjects.status).toBe(422);
    expect(notObjects.body.detail.map((issue: { loc: unknown[] }) => issue.loc)).toEqual([
      ['body', 'rows', 1],
      ['body', 'rows', 2],
    ]);
    expect(both).toMatchObject({ status: 400, body: { error: 'invalid_payload' } });
    expect(unknown.status).toBe(422);
    expect(neither.status).toBe(422);
    expect(neither.body.detail.length).toBeGreaterThan(0);
    expect(unknownJob.status).toBe(404);
    expect(unknownResume.status).toBe(404);
    expect(calls).toEqual({});
    expect(await charges(key)).toEqual([]);
    expect((await settled(key)).balance).toBe(100);
  });
});
