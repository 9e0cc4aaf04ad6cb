import { api, sandboxCounters } from '../e2e/api';
import { mode, startRde, waitUntil, type RunningRde } from '../e2e/harness';

jest.setTimeout(120_000);

const JOB_SPEC = 'Senior Backend Engineer, 5+ years, TypeScript, Kafka, PostgreSQL';

const role = (title: string, company: string, start: string, end: string | null) => ({
  title,
  company,
  start,
  end,
  is_current: end === null,
});
const backend = {
  full_name: 'Ada Strong',
  profile: {
    headline: 'Senior Backend Engineer',
    skills: ['TypeScript', 'Kafka', 'PostgreSQL'],
    experience: [
      role('Senior Backend Engineer', 'Streamly', '2020-01', null),
      role('Backend Engineer', 'Shopco', '2016-01', '2019-12'),
    ],
  },
};
const designer = { full_name: 'Dan Draw', work_experience: [role('Product Designer', 'Pixel', '2019-01', null)] };
const resume = {
  full_name: 'Rea Sume',
  profile: {
    about: [
      'Backend Engineer with TypeScript, Kafka and PostgreSQL in production.',
      'Backend Engineer, Ledgerly  2018 - Present',
      'Software Engineer, Bankco  2014 - 2018',
      'Owned the payments event pipeline and its PostgreSQL migrations end to end.',
    ].join('\n'),
  },
};
const titleOnly = { full_name: 'Tia Title', title: 'Backend Engineer', company: 'Acme' };

interface QualifiedRow {
  full_name: string;
  qualify: { score: number; basis: string; summary: string; strengths: string[]; gaps: string[] };
}

describe(`Qualify (${mode})`, () => {
  let rde: RunningRde;

  // An instance of its own: the rules check that no vendor is called, and on a shared instance the
  // provider jobs an earlier file started are still polled.
  beforeAll(async () => {
    rde = await startRde({}, mode);
  });
  afterAll(async () => {
    await rde?.stop();
  });

  const qualify = (body: unknown) => api(rde, 'POST', '/qualify', { body });
  const balance = async () =>
    (await api(rde, 'GET', '/billing/balance')).body as { balance: number; recent_ledger: unknown[] };

  /** Scoring is free and calls no vendor: the ledger and the sandbox's counters do not move. */
  async function expectNothingSpent(run: () => Promise<void>) {
    const [before, countersBefore] = [await balance(), await sandboxCounters(rde)];
    await run();
    expect(await balance()).toEqual(before);
    expect(await sandboxCounters(rde)).toEqual(countersBefore);
  }

  test('rule 1: dated history on the row or a pasted resume is read; the basis says which', async () => {
    await expectNothingSpent(async () => {
      const response = await qualify({ job_spec: JOB_SPEC, candidates: [backend, designer, resume] });
      expect(response.status).toBe(200);
      const byName = Object.fromEntries(
        (response.body.candidates as QualifiedRow[]).map((row) => [row.full_name, row.qualify]),
      );
      expect(byName['Ada Strong']!.basis).toBe('work_history');
      expect(byName['Dan Draw']!.basis).toBe('work_history');
      expect(byName['Rea Sume']!.basis).toBe('resume_text');
      expect(byName['Rea Sume']!.summary).toMatch(/relevant years of 5 asked/);
      expect(response.body._meta).toEqual({
        credits_charged: 0,
        scored_on: { work_history: 2, resume_text: 1, title_only: 0 },
        thin_profiles: [],
      });
    });
  });

  test('rule 2: candidates come ranked by score descending with the qualify cell; min_score keeps those at or above it', async () => {
    const all = await qualify({ job_spec: JOB_SPEC, candidates: [designer, resume, backend] });
    const rows = all.body.candidates as QualifiedRow[];
    expect(rows.map((row) => row.full_name)).toEqual(['Ada Strong', 'Rea Sume', 'Dan Draw']);
    const scores = rows.map((row) => row.qualify.score);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
    for (const { qualify: cell } of rows) {
      expect(cell.score).toBeGreaterThanOrEqual(0);
      expect(cell.score).toBeLessThanOrEqual(10);
      expect(cell.summary).toMatch(/\/10 on /);
    }
    expect(rows[0]!.qualify.strengths.join(' ')).toMatch(/skills matched: typescript, kafka, postgresql/);
    expect(rows[2]!.qualify.gaps.join(' ')).toMatch(/skills missing/);
    const cut = rows[1]!.qualify.score;
    const kept = await qualify({ job_spec: JOB_SPEC, candidates: [designer, resume, backend], min_score: cut });
    expect((kept.body.candidates as QualifiedRow[]).map((row) => row.full_name)).toEqual(['Ada Strong', 'Rea Sume']);
  });

  test('rule 3: a batch of title-only candidates is 422 no_work_history unless allow_thin_profiles', async () => {
    await expectNothingSpent(async () => {
      const refused = await qualify({
        job_spec: JOB_SPEC,
        candidates: [titleOnly, { full_name: 'X', title: 'Designer' }],
      });
      expect(refused.status).toBe(422);
      expect(refused.body.detail.error).toBe('no_work_history');
      const allowed = await qualify({
        job_spec: JOB_SPEC,
        candidates: [{ full_name: 'X', title: 'Designer' }, titleOnly],
        allow_thin_profiles: true,
      });
      expect(allowed.status).toBe(200);
      expect((allowed.body.candidates as QualifiedRow[]).map((row) => row.full_name)).toEqual(['Tia Title', 'X']);
      expect(allowed.body._meta).toMatchObject({ scored_on: { title_only: 2 }, thin_profiles: [0, 1] });
    });
  });

  test('rule 3: a mixed batch is scored, its title-only rows listed in thin_profiles', async () => {
    const mixed = await qualify({ job_spec: JOB_SPEC, candidates: [backend, titleOnly] });
    expect(mixed.status).toBe(200);
    expect(mixed.body._meta.thin_profiles).toEqual([1]);
    expect((mixed.body.candidates as QualifiedRow[])[1]!.qualify.basis).toBe('title_only');
  });

  test("rule 4: async detaches into a run writing each row's qualify cell into a dataset; min_score is not applied", async () => {
    await expectNothingSpent(async () => {
      const candidates = [designer, backend, resume];
      const started = await qualify({ job_spec: JOB_SPEC, candidates, async: true, min_score: 9.9 });
      expect(started.status).toBe(200);
      expect(started.body).toMatchObject({
        run_id: expect.stringMatching(/^qlf_/),
        dataset_id: expect.stringMatching(/^ds_/),
        status: 'running',
        candidates: 3,
        _meta: { credits_charged: 0, scored_on: { work_history: 2, resume_text: 1, title_only: 0 } },
      });
      const path = `/api/v2/datasets/${started.body.dataset_id}`;
      await waitUntil(async () => (await api(rde, 'GET', path)).body.enrich_status === 'completed', 30_000);
      const rows = (await api(rde, 'GET', `${path}/rows?limit=10`)).body.rows as QualifiedRow[];
      // Rows keep their request order; every one has its cell, even those under min_score.
      expect(rows.map((row) => row.full_name)).toEqual(['Dan Draw', 'Ada Strong', 'Rea Sume']);
      expect(rows.map((row) => row.qualify.basis)).toEqual(['work_history', 'work_history', 'resume_text']);
      const sync = (await qualify({ job_spec: JOB_SPEC, candidates })).body.candidates as QualifiedRow[];
      const syncScore = Object.fromEntries(sync.map((row) => [row.full_name, row.qualify.score]));
      for (const row of rows) expect(row.qualify.score).toBe(syncScore[row.full_name]);
    });
  });

  test('rule 4: an async batch gets the same body checks before any dataset is made', async () => {
    const datasetsBefore = (await api(rde, 'GET', '/api/v2/datasets')).body.total;
    const refused = await qualify({ job_spec: JOB_SPEC, candidates: [titleOnly], async: true });
    expect(refused.status).toBe(422);
    expect(refused.body.detail.error).toBe('no_work_history');
    const badMin = await qualify({ job_spec: JOB_SPEC, candidates: [backend], async: true, min_score: 'high' });
    expect(badMin.body.detail.error).toBe('bad_min_score');
    expect((await api(rde, 'GET', '/api/v2/datasets')).body.total).toBe(datasetsBefore);
  });

  test('rule 5: malformed bodies are refused before scoring, and cost nothing', async () => {
    await expectNothingSpent(async () => {
      const badMin = await qualify({ job_spec: JOB_SPEC, candidates: [backend], min_score: '7' });
      expect(badMin.status).toBe(422);
      expect(badMin.body.detail.error).toBe('bad_min_score');
      const badRows = await qualify({ job_spec: JOB_SPEC, candidates: [backend, 'Ada', null, [1]] });
      expect(badRows.status).toBe(422);
      expect(badRows.body.detail).toMatchObject({ error: 'bad_candidates', rows: [1, 2, 3] });
      const noSpec = await qualify({ candidates: [backend] });
      expect(noSpec.status).toBe(422);
      expect(noSpec.body.detail[0].loc).toEqual(['body', 'job_spec']);
      const anonymous = await api(rde, 'POST', '/qualify', {
        key: null,
        body: { job_spec: JOB_SPEC, candidates: [backend] },
      });
      expect(anonymous.status).toBe(401);
    });
  });
});
