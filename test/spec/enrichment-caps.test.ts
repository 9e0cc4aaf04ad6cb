import { api } from '../e2e/api';
import { mode, startRde, waitUntil, type RunningRde } from '../e2e/harness';
import { newTeam } from '../e2e/teams';
import { enrichmentSupport, QUICK_ENRICHMENT_ENV, rowOf, type EnrichedRow } from './enrichment-support';

jest.setTimeout(240_000);

/** The replay window these tests run with: short, so a batch sent again after it is seen to bill anew. */
const REPLAY_WINDOW_MS = 1_500;

/**
 * Enrichment waterfalls rule 9 (a spending cap leaves rows out, `skip` / `spending_cap_reached`,
 * with one warning) and rule 7's second half (after the replay window a batch bills as a fresh
 * run), and the four waterfalls in the tool catalog (spec "Tools"), through the gateway: body,
 * ledger and sandbox counters.
 */
describe(`enrichment waterfalls: spending caps, the replay window, the waterfalls as tools (${mode})`, () => {
  let rde: RunningRde;
  const { person, callsDuring, settled, charges, datasetRows } = enrichmentSupport(() => rde);

  beforeAll(async () => {
    rde = await startRde({ ...QUICK_ENRICHMENT_ENV, RDE_ENRICH_REPLAY_WINDOW_MS: String(REPLAY_WINDOW_MS) });
  });

  afterAll(async () => {
    await rde?.stop();
  });

  const people = (from: number, count: number) =>
    Promise.all(Array.from({ length: count }, (_, i) => person(from + i)));

  /** The rows once every walk ended: from the answer, or from the dataset they land in (rule 6). */
  async function enrichAll(key: string, capability: string, body: object) {
    const response = await api(rde, 'POST', `/enrich/${capability}`, { key, body });
    expect(response.status).toBe(200);
    if (response.body._meta.status === 'completed') return { response, rows: response.body.results as EnrichedRow[] };
    const datasetId = response.body._meta.dataset_id as string;
    await waitUntil(async () => (await datasetRows(key, datasetId)).every((row) => row.steps.length > 0), 60_000, 250);
    return { response, rows: await datasetRows(key, datasetId) };
  }

  /** What one row can cost at worst (the hold per row): the dry run's price of one row. */
  async function worstPerRow(key: string, capability: string, row: object): Promise<number> {
    const dry = await api(rde, 'POST', `/enrich/${capability}`, { key, body: { rows: [row], dry_run: true } });
    return dry.body._meta.would_charge_credits as number;
  }

  const capSkipped = (row: EnrichedRow) =>
    row.steps.length > 0 &&
    row.steps.every((step) => step.outcome === 'skip' && step.detail === 'spending_cap_reached' && step.charged === 0);

  test('rule 9: rows past the workspace spending cap are skipped with spending_cap_reached, asked of nobody, at 0', async () => {
    const { owner } = await newTeam(rde, 'enrich-cap');
    const rows = (await people(12_000, 5)).map((p) => rowOf(p));
    const perRow = await worstPerRow(owner, 'email_enrichment', rows[0]!);
    // Room for the worst case of three rows, not five.
    const cap = await api(rde, 'PUT', '/api/v2/billing/spending-cap', { key: owner, body: { cap: 3 * perRow } });
    expect(cap.status).toBe(200);

    const { result, calls } = await callsDuring(async () => {
      const run = await enrichAll(owner, 'email_enrichment', { rows });
      // The background walks (batch and async jobs) end before the counters are read.
      await settled(owner);
      return run;
    });
    const { response, rows: enriched } = result;
    expect(response.body._meta.warnings).toEqual([
      {
        code: 'spending_cap_reached',
        rows_affected: 2,
        providers_skipped: ['mailfinder', 'bulkmail', 'reachout'],
        cap_scope: 'workspace',
        message: expect.stringContaining('spending cap'),
      },
    ]);
    // The leading rows the cap allowed were walked; the last two were left out, each provider skipped.
    expect(enriched.slice(0, 3).every((row) => !capSkipped(row) && row.steps.length > 0)).toBe(true);
    for (const row of enriched.slice(3)) {
      expect(capSkipped(row)).toBe(true);
      expect(row.steps.map((step) => step.step)).toEqual(['mailfinder.find', 'bulkmail.submit', 'reachout.submit']);
      expect(row).toMatchObject({ hit: false, email: null });
    }
    // Only the three allowed rows reached the first provider; nobody was asked for the others.
    expect(calls['mailfinder.find']).toBe(3);
    // The allowed rows keep their charges: one per hit, each once; the skipped rows cost nothing.
    const hits = enriched.filter((row) => row.hit).length;
    const ledger = await charges(owner);
    expect(ledger).toHaveLength(hits);
    expect(new Set(ledger.map((entry) => entry.id)).size).toBe(hits);
    expect(await settled(owner)).toMatchObject({ balance: 100 - ledger.reduce((sum, e) => sum + e.amount, 0) });
    // The dataset shows the same skipped rows.
    const stored = await datasetRows(owner, response.body._meta.dataset_id as string);
    expect(stored.slice(3).every(capSkipped)).toBe(true);
  });

  test('rule 9: a member whose cap allows no row gets every row skipped (cap_scope member), nothing held, no provider asked', async () => {
    const { owner, member, memberId } = await newTeam(rde, 'enrich-member-cap');
    // One cent: less than any row's worst case.
    const cap = await api(rde, 'PUT', `/api/v2/workspaces/members/${memberId}/spend-cap`, {
      key: owner,
      body: { cap_usd: 0.01 },
    });
    expect(cap.status).toBe(200);
    const rows = (await people(12_100, 3)).map((p) => rowOf(p));
    const { result: response, calls } = await callsDuring(() =>
      api(rde, 'POST', '/enrich/personal_email', { key: member, body: { rows } }),
    );
    expect(response.status).toBe(200);
    expect(calls).toEqual({});
    expect(response.body._meta).toMatchObject({
      charged: 0,
      credits_charged: 0,
      balance: 100,
      warnings: [
        {
          code: 'spending_cap_reached',
          rows_affected: 3,
          providers_skipped: ['persona', 'homebase', 'verimail'],
          cap_scope: 'member',
        },
      ],
    });
    const results = response.body.results as EnrichedRow[];
    expect(results).toHaveLength(3);
    expect(results.every(capSkipped)).toBe(true);
    expect(results.every((row) => row.personal_email === null)).toBe(true);
    expect(await settled(member)).toMatchObject({ balance: 100, reserved: 0 });
    expect(await charges(owner)).toEqual([]);
    // The owner's own calls are not under the member's cap.
    const own = await api(rde, 'POST', '/enrich/personal_email', { key: owner, body: { rows: rows.slice(0, 1) } });
    expect(own.body._meta.warnings).toBeUndefined();
  });

  const CAPABILITIES = ['email_enrichment', 'personal_email', 'linkedin_profile', 'phone_enrichment'];

  test('GET /tools lists the four enrichment waterfalls with the chains they walk; GET /tools/{waterfall} prices each step', async () => {
    const { owner } = await newTeam(rde, 'enrich-tools');
    const { result, calls } = await callsDuring(async () => {
      const listed = await api(rde, 'GET', '/tools?filter=enrich', { key: owner });
      const described = await Promise.all(
        CAPABILITIES.map((name) => api(rde, 'GET', `/tools/${name}`, { key: owner })),
      );
      // What the waterfall service will walk: the chain of a dry run (free, calls nobody).
      const walked = await Promise.all(
        CAPABILITIES.map((name) =>
          api(rde, 'POST', `/tools/${name}`, { key: owner, body: { payload: { name: 'Ada' }, dry_run: true } }),
        ),
      );
      return { listed, described, walked };
    });
    expect(calls).toEqual({});
    expect(result.listed.status).toBe(200);
    const waterfalls = (result.listed.body.results as { name: string; kind: string; chain: string[] }[]).filter(
      (tool) => tool.kind === 'waterfall',
    );
    expect(waterfalls.map((tool) => tool.name).sort()).toEqual([...CAPABILITIES].sort());
    expect(result.listed.body.count).toBe(result.listed.body.results.length);
    for (const [i, name] of CAPABILITIES.entries()) {
      const chain = result.walked[i]!.body.chain as string[];
      expect(waterfalls.find((tool) => tool.name === name)).toMatchObject({ module: 'enrich', method_count: 0, chain });
      const detail = result.described[i]!;
      expect(detail.status).toBe(200);
      expect(detail.body).toMatchObject({ name, kind: 'waterfall', chain, methods: [] });
      expect(detail.body.steps.map((step: { step: string }) => step.step)).toEqual(chain);
      for (const step of detail.body.steps) {
        const [tool, method] = step.step.split('.');
        const contract = await api(rde, 'GET', `/tools/${tool}/${method}`, { key: owner });
        expect(step.cost).toEqual(contract.body.cost);
      }
    }
    expect(await charges(owner)).toEqual([]);
  });

  test('rule 7: after the replay window an identical rows batch runs and bills as a fresh run', async () => {
    const { owner } = await newTeam(rde, 'enrich-replay');
    const rows = (await people(12_200, 3)).map((p) => rowOf(p));
    const first = await enrichAll(owner, 'email_enrichment', { rows });
    const firstLedger = await (async () => (await settled(owner), charges(owner)))();
    const hits = first.rows.filter((row) => row.hit).length;
    expect(hits).toBeGreaterThan(0);
    expect(firstLedger).toHaveLength(hits);
    // Wait out the window (shortened by RDE_ENRICH_REPLAY_WINDOW_MS; the spec's is 15 minutes).
    await new Promise((resolve) => setTimeout(resolve, REPLAY_WINDOW_MS + 500));
    const { result: again, calls } = await callsDuring(async () => {
      const run = await enrichAll(owner, 'email_enrichment', { rows });
      await settled(owner);
      return run;
    });
    expect(again.response.body._meta.replayed).toBeUndefined();
    expect(again.response.body._meta.run_id).not.toBe(first.response.body._meta.run_id);
    expect(again.response.body._meta.dataset_id).not.toBe(first.response.body._meta.dataset_id);
    expect(calls['mailfinder.find']).toBe(3);
    // Billed anew: the second run's hits are new ledger entries beside the first run's.
    const ledger = await charges(owner);
    expect(ledger).toHaveLength(hits + again.rows.filter((row) => row.hit).length);
    expect(new Set(ledger.map((entry) => entry.id)).size).toBe(ledger.length);
  });
});
