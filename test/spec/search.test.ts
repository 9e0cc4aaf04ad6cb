import { api, sandboxCounters, sandboxKnobs } from '../e2e/api';
import { mode, startRde, waitUntil, type RunningRde } from '../e2e/harness';

jest.setTimeout(180_000);

/** The spec's Search section, rule by rule, through the gateway: body, ledger and vendor counters. */

const SEARCH = '/search/people_search';
const VENDORS = ['pplgraph', 'prospectdb', 'webscout', 'linkscan'] as const;
type Vendor = (typeof VENDORS)[number];

interface LedgerRow {
  id: string;
  kind: string;
  amount: number;
  run_id: string;
}

/** A Step record as the response shows it (the fields these tests read). */
type Step = { step: string; outcome: string | null; charged: number; counts: Record<string, number> } & Record<
  string,
  unknown
>;

describe(`search (${mode})`, () => {
  let rde: RunningRde;
  let emails = 0;

  beforeAll(async () => {
    // Vendors answer at once and without rate limits: the suite checks what runs and what is charged.
    rde = await startRde({ RDE_SANDBOX_LATENCY_SCALE: '0', RDE_SANDBOX_RATE_LIMITS: 'false' }, mode, { shared: true });
  });

  afterAll(async () => {
    await rde?.stop();
  });

  /** A fresh workspace with its free grant, so each rule reads its own ledger. */
  async function workspace(): Promise<string> {
    emails += 1;
    const created = JSON.parse(
      await rde.admin(['create-workspace', '--email', `search.${mode}.${emails}.${Date.now()}@example.com`]),
    ) as { key: string };
    return created.key;
  }

  const search = (key: string, body: unknown, path = SEARCH) => api(rde, 'POST', path, { key, body });
  const balanceOf = async (key: string) => (await api(rde, 'GET', '/billing/balance', { key })).body;

  async function settled(key: string) {
    await waitUntil(async () => (await balanceOf(key))._meta.settled === true, 15_000);
    return balanceOf(key);
  }

  /** Search requests each vendor received so far. */
  async function searchCalls(): Promise<Record<Vendor, number>> {
    const counters = await sandboxCounters(rde);
    return Object.fromEntries(VENDORS.map((vendor) => [vendor, counters[vendor]?.search?.requests ?? 0])) as Record<
      Vendor,
      number
    >;
  }

  async function callsDuring(run: () => Promise<unknown>): Promise<Record<Vendor, number>> {
    const before = await searchCalls();
    await run();
    const after = await searchCalls();
    return Object.fromEntries(VENDORS.map((vendor) => [vendor, after[vendor] - before[vendor]])) as Record<
      Vendor,
      number
    >;
  }

  const none = { pplgraph: 0, prospectdb: 0, webscout: 0, linkscan: 0 };

  /** The settled ledger charges of one run, and the workspace's balance after them. */
  async function chargesOf(key: string, runId: string) {
    const after = await settled(key);
    expect(after.reserved).toBe(0);
    return {
      balance: after.balance as number,
      charges: (after.recent_ledger as LedgerRow[]).filter((entry) => entry.run_id === runId),
    };
  }

  /** A refused request: nothing held, nothing charged, the grant untouched. */
  async function expectNothingCharged(key: string) {
    const after = await settled(key);
    expect(after.balance).toBe(100);
    expect(after.reserved).toBe(0);
    expect((after.recent_ledger as LedgerRow[]).filter((entry) => entry.kind === 'charge')).toEqual([]);
  }

  const stepOf = (body: { steps: Step[] }, name: string) => body.steps.find((step) => step.step === name)!;

  describe('rule 1–3: filter binding', () => {
    test('rule 1: filters bind nested or flat, synonyms bind to canonical keys, and an explicit query wins', async () => {
      const key = await workspace();
      let response: Awaited<ReturnType<typeof search>> | undefined;
      const calls = await callsDuring(async () => {
        response = await search(key, {
          title: 'Chief Unicorn Officer',
          location: 'San Francisco',
          query: { titles: ['Software Engineer'] },
          providers: ['pplgraph'],
          limit: 3,
        });
      });
      expect(response!.status).toBe(200);
      const { results, _meta: meta } = response!.body;
      expect(results).toHaveLength(3);
      for (const row of results) {
        expect(row).toMatchObject({ title: 'Software Engineer', _source: 'pplgraph.search' });
        expect(row.location).toContain('san francisco');
      }
      expect(meta.ignored_query_keys).toEqual([]);
      expect(calls).toEqual({ ...none, pplgraph: 1 });
      const { charges } = await chargesOf(key, meta.run_id);
      expect(charges).toEqual([expect.objectContaining({ id: `${meta.run_id}:0:pplgraph.search`, amount: -3 })]);
    });

    test('rule 2: a key matching no filter is listed in _meta.ignored_query_keys and the search runs', async () => {
      const key = await workspace();
      const response = await search(key, {
        titles: ['Software Engineer'],
        favourite_colour: 'blue',
        query: { shoe_size: 9 },
        providers: ['pplgraph'],
        limit: 2,
      });
      expect(response.status).toBe(200);
      expect(response.body._meta.ignored_query_keys).toEqual(['favourite_colour', 'query.shoe_size']);
      expect(response.body.results).toHaveLength(2);
      expect((await chargesOf(key, response.body._meta.run_id)).charges).toHaveLength(1);
    });

    test('rule 3: when no key binds a filter, 400 names the unplaced keys and lists the canonical filters; nothing runs or is charged', async () => {
      const key = await workspace();
      let response: Awaited<ReturnType<typeof search>> | undefined;
      const calls = await callsDuring(async () => {
        response = await search(key, { favourite_colour: 'blue', query: { shoe_size: 9 }, limit: 5 });
      });
      expect(response!.status).toBe(400);
      expect(response!.body).toMatchObject({
        error: 'no_filter_bound',
        unplaced: ['favourite_colour', 'query.shoe_size'],
        filters: expect.arrayContaining(['titles', 'locations', 'skills', 'company_domains', 'company_names']),
      });
      expect(response!.body.detail).toContain('favourite_colour');
      expect(calls).toEqual(none);
      await expectNothingCharged(key);
    });
  });

  describe('rule 2 of the issue: coverage', () => {
    test('coverage single stops once limit people are collected; later steps are skip, never called, never billed', async () => {
      const key = await workspace();
      let response: Awaited<ReturnType<typeof search>> | undefined;
      const calls = await callsDuring(async () => {
        response = await search(key, { titles: ['Software Engineer'], limit: 5 });
      });
      const body = response!.body;
      expect(body.results).toHaveLength(5);
      expect(body.steps.map((step: Step) => [step.step, step.outcome])).toEqual([
        ['pplgraph.search', null],
        ['prospectdb.search', 'skip'],
        ['webscout.search', 'skip'],
        ['linkscan.search', 'skip'],
      ]);
      expect(calls).toEqual({ ...none, pplgraph: 1 });
      const { charges, balance } = await chargesOf(key, body._meta.run_id);
      expect(charges).toEqual([expect.objectContaining({ id: `${body._meta.run_id}:0:pplgraph.search`, amount: -5 })]);
      expect(balance).toBe(95);
    });

    test('coverage max runs every source and returns the deduplicated union', async () => {
      const key = await workspace();
      let response: Awaited<ReturnType<typeof search>> | undefined;
      const calls = await callsDuring(async () => {
        response = await search(key, { company_names: ['Acme Corp'], coverage: 'max', limit: 10 });
      });
      const body = response!.body;
      expect(calls.pplgraph).toBe(1);
      expect(calls.prospectdb).toBe(1);
      expect(calls.webscout).toBe(1);
      expect(calls.linkscan).toBe(1);
      const urls = body.results.map((row: { linkedin_url?: string }) => row.linkedin_url).filter(Boolean);
      expect(new Set(urls).size).toBe(urls.length);
      const sources = new Set(body.results.map((row: { _source: string }) => row._source));
      expect(sources.size).toBeGreaterThan(1);
      const collected = body.steps.reduce((sum: number, step: Step) => sum + step.counts.new, 0);
      expect(body.results).toHaveLength(collected);
      const { charges } = await chargesOf(key, body._meta.run_id);
      const billed = body.steps.filter((step: Step) => step.charged > 0);
      expect(charges.map((entry) => entry.id).sort()).toEqual(
        billed.map((step: Step) => `${body._meta.run_id}:${body.steps.indexOf(step)}:${step.step}`).sort(),
      );
      expect(-charges.reduce((sum, entry) => sum + entry.amount, 0)).toBe(body._meta.charged);
    });
  });

  describe('rule 5: step outcomes', () => {
    test('outcome cant_scope_company: a company the provider cannot scope by skips the step without a call', async () => {
      const key = await workspace();
      let response: Awaited<ReturnType<typeof search>> | undefined;
      const calls = await callsDuring(async () => {
        response = await search(key, {
          company_linkedin_urls: ['https://www.linkedin.com/company/acme-corp'],
          providers: ['prospectdb', 'linkscan'],
        });
      });
      expect(response!.body.steps.map((step: Step) => step.outcome)).toEqual([
        'cant_scope_company',
        'cant_scope_company',
      ]);
      expect(calls).toEqual(none);
      await expectNothingCharged(key);
    });

    test('outcome unsupported_fields: a capability-gated field the provider cannot express is named, no call', async () => {
      const key = await workspace();
      let response: Awaited<ReturnType<typeof search>> | undefined;
      const calls = await callsDuring(async () => {
        response = await search(key, { titles: ['Software Engineer'], skills: ['Go'], providers: ['prospectdb'] });
      });
      expect(response!.body.steps).toEqual([
        expect.objectContaining({
          step: 'prospectdb.search',
          outcome: 'unsupported_fields',
          unsupported_fields: ['skills'],
        }),
      ]);
      expect(calls).toEqual(none);
      await expectNothingCharged(key);
    });

    test('outcome cant_scope_location: a location no provider token resolves is not searched unlocated', async () => {
      const key = await workspace();
      let response: Awaited<ReturnType<typeof search>> | undefined;
      const calls = await callsDuring(async () => {
        response = await search(key, {
          titles: ['Software Engineer'],
          locations: ['Atlantis'],
          providers: ['pplgraph', 'prospectdb'],
        });
      });
      expect(response!.body.steps.map((step: Step) => [step.step, step.outcome])).toEqual([
        ['pplgraph.search', 'cant_scope_location'],
        ['prospectdb.search', 'cant_scope_location'],
      ]);
      // PeopleGraph refused the token (a free 400); ProspectDB's free geo look-up found no code, so its search never ran.
      expect(calls).toEqual({ ...none, pplgraph: 1 });
      expect(response!.body.results).toEqual([]);
      await expectNothingCharged(key);
    });

    test('outcome filter_not_bound: a filter the provider accepts and ignores is not trusted, not charged', async () => {
      const key = await workspace();
      let response: Awaited<ReturnType<typeof search>> | undefined;
      const calls = await callsDuring(async () => {
        response = await search(key, {
          titles: ['Software Engineer'],
          departments: ['Engineering'],
          providers: ['pplgraph'],
        });
      });
      expect(response!.body.steps).toEqual([
        expect.objectContaining({ step: 'pplgraph.search', outcome: 'filter_not_bound', charged: 0 }),
      ]);
      expect(response!.body.results).toEqual([]);
      expect(calls).toEqual(none);
      await expectNothingCharged(key);
    });

    test('outcome company_mismatch: rows none of which is at the requested company are dropped and counted', async () => {
      const key = await workspace();
      const response = await search(key, { company_names: ['cme'], providers: ['webscout'] });
      const step = stepOf(response.body, 'webscout.search');
      expect(step.outcome).toBe('company_mismatch');
      expect(step.counts.returned).toBeGreaterThan(0);
      expect(step.verify_dropped).toBe(step.counts.returned);
      expect(response.body.results).toEqual([]);
      // A public-web step charges per request, found or not.
      const { charges } = await chargesOf(key, response.body._meta.run_id);
      expect(charges).toEqual([expect.objectContaining({ amount: -1 })]);
    });

    test('outcome no_result: no match on a per-profile database is free', async () => {
      const key = await workspace();
      let response: Awaited<ReturnType<typeof search>> | undefined;
      const calls = await callsDuring(async () => {
        response = await search(key, { titles: ['Chief Unicorn Wrangler'], providers: ['pplgraph'] });
      });
      expect(response!.body.steps).toEqual([expect.objectContaining({ outcome: 'no_result', charged: 0 })]);
      expect(calls).toEqual({ ...none, pplgraph: 1 });
      await expectNothingCharged(key);
    });

    test('outcome skip: a vendor failing mid-chain is skip with detail, never a charge, and the chain goes on', async () => {
      const key = await workspace();
      await sandboxKnobs(rde, 'pplgraph', { faults: { server_error: 1 } });
      try {
        const response = await search(key, { titles: ['Software Engineer'], limit: 3 });
        const failed = stepOf(response.body, 'pplgraph.search');
        expect(failed).toMatchObject({ outcome: 'skip', charged: 0, detail: expect.stringContaining('failed') });
        expect(stepOf(response.body, 'prospectdb.search').outcome).toBeNull();
        expect(response.body.results).toHaveLength(3);
        const { charges } = await chargesOf(key, response.body._meta.run_id);
        expect(charges.map((entry) => entry.id)).toEqual([`${response.body._meta.run_id}:1:prospectdb.search`]);
      } finally {
        await sandboxKnobs(rde, 'pplgraph', { faults: { server_error: 0 } });
      }
    });

    test('outcome session_limit: a search in a session at its cap stops every step, calls nobody, charges nothing', async () => {
      const key = await workspace();
      const started = await api(rde, 'POST', '/session/start', {
        key,
        body: { steps: ['search'], user_prompt: 'find' },
      });
      const sid = started.body.id as string;
      expect((await api(rde, 'POST', `/session/${sid}/limit`, { key, body: { usd: 0.01 } })).status).toBe(200);
      let response: Awaited<ReturnType<typeof search>> | undefined;
      const calls = await callsDuring(async () => {
        response = await api(rde, 'POST', SEARCH, {
          key,
          body: { titles: ['Software Engineer'], limit: 10, providers: ['pplgraph', 'prospectdb'] },
          headers: { 'x-session-id': sid },
        });
      });
      expect(response!.status).toBe(200);
      expect((response!.body.steps as Step[]).map((step) => step.outcome)).toEqual(['session_limit', 'session_limit']);
      expect(response!.body._meta.charged).toBe(0);
      expect(calls).toEqual(none);
      await expectNothingCharged(key);
    });

    test('outcome insufficient_credits: a step whose worst case the balance cannot cover stops, the rest runs', async () => {
      const key = await workspace();
      let response: Awaited<ReturnType<typeof search>> | undefined;
      const calls = await callsDuring(async () => {
        // PeopleGraph's worst case is 200 profiles (200 credits) against a grant of 100.
        response = await search(key, {
          titles: ['Software Engineer'],
          limit: 200,
          providers: ['pplgraph', 'prospectdb'],
        });
      });
      expect(stepOf(response!.body, 'pplgraph.search').outcome).toBe('insufficient_credits');
      expect(stepOf(response!.body, 'prospectdb.search').counts.pages).toBe(8);
      expect(calls).toEqual({ ...none, prospectdb: 8 });
      const { charges, balance } = await chargesOf(key, response!.body._meta.run_id);
      expect(charges).toEqual([expect.objectContaining({ amount: -8 })]);
      expect(balance).toBe(92);
    });
  });

  describe('rule 5: the relaxed retry', () => {
    test('relaxed retry: when the AI database answered and nobody was found, unsupported providers run once without those fields', async () => {
      const key = await workspace();
      const response = await search(key, {
        titles: ['Software Engineer'],
        skills: ['Underwater Basket Weaving'],
        limit: 3,
      });
      const body = response.body;
      expect(body.steps[0]).toMatchObject({ step: 'pplgraph.search', outcome: 'no_result' });
      expect(body.steps[1]).toMatchObject({ step: 'prospectdb.search', outcome: 'unsupported_fields' });
      const relaxed = body.steps.find((step: Step) => step.filters_relaxed);
      expect(relaxed).toMatchObject({ step: 'prospectdb.search', outcome: null, filters_relaxed: ['skills'] });
      expect(body.results).toHaveLength(3);
      for (const row of body.results) expect(row.filters_relaxed).toEqual(['skills']);
      const { charges } = await chargesOf(key, body._meta.run_id);
      expect(charges).toEqual([
        expect.objectContaining({
          id: `${body._meta.run_id}:${body.steps.indexOf(relaxed)}:prospectdb.search`,
          amount: -1,
        }),
      ]);
    });
  });

  describe('rules 6–9: public web', () => {
    test('rule 6: public-web continuation runs the web people search, then the LinkedIn profile search, when a named company was not filled', async () => {
      const key = await workspace();
      let response: Awaited<ReturnType<typeof search>> | undefined;
      const calls = await callsDuring(async () => {
        response = await search(key, { company_names: ['Acme Corp'], limit: 40 });
      });
      const body = response!.body;
      expect(body.steps.map((step: Step) => step.step)).toEqual(VENDORS.map((vendor) => `${vendor}.search`));
      expect(calls.webscout).toBe(1);
      expect(calls.linkscan).toBeGreaterThanOrEqual(1);
      expect(stepOf(body, 'webscout.search').counts.pages).toBe(1);
      const { charges } = await chargesOf(key, body._meta.run_id);
      expect(charges.map((entry) => entry.id)).toEqual(
        expect.arrayContaining([`${body._meta.run_id}:2:webscout.search`, `${body._meta.run_id}:3:linkscan.search`]),
      );
    });

    test('rule 7: company verification keeps whole-name matches and drops look-alikes', async () => {
      const key = await workspace();
      const response = await search(key, { company_names: ['acme'], providers: ['webscout'], limit: 10 });
      const step = stepOf(response.body, 'webscout.search');
      expect(step.verify_dropped).toBeGreaterThan(0);
      const companies = response.body.results.map((row: { company: string }) => row.company);
      expect(companies.length).toBeGreaterThan(0);
      expect(companies.filter((name: string) => ['GoAcme', 'Acmetrics'].includes(name))).toEqual([]);
      for (const name of companies) expect(name.toLowerCase().startsWith('acme')).toBe(true);

      const variant = await search(key, { company_names: ['Acme Inc'], providers: ['webscout'], limit: 10 });
      expect(variant.body.results.length).toBeGreaterThan(0);
      expect(new Set(variant.body.results.map((row: { company: string }) => row.company))).toEqual(
        new Set(['ACME-Inc']),
      );
      await chargesOf(key, variant.body._meta.run_id);
    });

    test('rule 8: a filter the public-web steps cannot prove ends the chain at the databases with unsupported_fields', async () => {
      const key = await workspace();
      let response: Awaited<ReturnType<typeof search>> | undefined;
      const calls = await callsDuring(async () => {
        response = await search(key, { company_names: ['Acme Corp'], skills: ['Go'], limit: 40 });
      });
      for (const name of ['webscout.search', 'linkscan.search']) {
        expect(stepOf(response!.body, name)).toMatchObject({
          outcome: 'unsupported_fields',
          unsupported_fields: ['skills'],
        });
      }
      expect(calls.webscout).toBe(0);
      expect(calls.linkscan).toBe(0);
      const { charges } = await chargesOf(key, response!.body._meta.run_id);
      expect(charges.every((entry) => !/webscout|linkscan/.test(entry.id))).toBe(true);
    });

    test('rule 9: LinkedIn profile search rows need verification and the warning counts them', async () => {
      const key = await workspace();
      const response = await search(key, { company_names: ['Acme Corp'], providers: ['linkscan'], limit: 10 });
      const { results, _meta: meta } = response.body;
      expect(results.length).toBeGreaterThan(0);
      for (const row of results) {
        expect(row).toMatchObject({ verification_required: true, verification_reason: expect.any(String) });
      }
      expect(meta.warnings).toContainEqual({ code: 'unverified_web_results', count: results.length });
      await chargesOf(key, meta.run_id);
    });

    test('web rows outside the requested locations carry outside_locations and the warning', async () => {
      const key = await workspace();
      const response = await search(key, {
        company_names: ['Golden Gate Analytics'],
        locations: ['San Francisco'],
        providers: ['webscout'],
        limit: 10,
      });
      const outside = response.body.results.filter((row: { outside_locations?: boolean }) => row.outside_locations);
      expect(outside.length).toBeGreaterThan(0);
      for (const row of outside) expect(row.location).not.toContain('San Francisco');
      expect(response.body._meta.warnings).toContainEqual({ code: 'outside_locations', count: outside.length });
      await chargesOf(key, response.body._meta.run_id);
    });
  });

  describe('rule 10: advisory warnings', () => {
    test('many_companies: more than 10 companies in one search is a free warning', async () => {
      const key = await workspace();
      const companies = Array.from({ length: 11 }, (_, i) => `Company ${i}`);
      const response = await search(key, { company_names: companies, providers: ['pplgraph'], limit: 1 });
      expect(response.body._meta.warnings).toContainEqual({ code: 'many_companies', count: 11 });
      await chargesOf(key, response.body._meta.run_id);
    });

    test('over_filtered: nothing returned with two or more filter groups is a free warning', async () => {
      const key = await workspace();
      const response = await search(key, {
        titles: ['Chief Unicorn Wrangler'],
        seniority: 'vp',
        providers: ['pplgraph'],
      });
      expect(response.body.results).toEqual([]);
      expect(response.body._meta.warnings).toContainEqual(expect.objectContaining({ code: 'over_filtered' }));
      await expectNothingCharged(key);
    });
  });

  describe('rule 11: pagination', () => {
    test('pagination: limit 130 at 25 a page is 6 pages of 22, each page with people billed', async () => {
      const key = await workspace();
      let response: Awaited<ReturnType<typeof search>> | undefined;
      const calls = await callsDuring(async () => {
        response = await search(key, { titles: ['Software Engineer'], providers: ['prospectdb'], limit: 130 });
      });
      const step = stepOf(response!.body, 'prospectdb.search');
      expect(step.counts.pages).toBe(6);
      expect(step.counts.returned).toBe(132);
      expect(response!.body.results).toHaveLength(130);
      expect(calls).toEqual({ ...none, prospectdb: 6 });
      const { charges } = await chargesOf(key, response!.body._meta.run_id);
      expect(charges).toEqual([expect.objectContaining({ amount: -6 })]);
    });

    test('every returned row on a per-result source is billed', async () => {
      const key = await workspace();
      const response = await search(key, { titles: ['Software Engineer'], providers: ['pplgraph'], limit: 7 });
      expect(stepOf(response.body, 'pplgraph.search').counts).toMatchObject({ returned: 7, charged: 7 });
      const { charges } = await chargesOf(key, response.body._meta.run_id);
      expect(charges).toEqual([expect.objectContaining({ amount: -7 })]);
    });
  });

  describe('rule 4: the response', () => {
    test('response: results tagged _source, Step records, hit, and _meta with money, run and dataset', async () => {
      const key = await workspace();
      const response = await search(key, { titles: ['Software Engineer'], limit: 4 });
      expect(response.status).toBe(200);
      const { results, steps, hit, _meta: meta } = response.body;
      expect(hit).toBe(true);
      expect(results.every((row: { _source: string }) => row._source === 'pplgraph.search')).toBe(true);
      expect(steps[0]).toEqual({
        step: 'pplgraph.search',
        outcome: null,
        charged: 4,
        counts: { returned: 4, new: 4, charged: 4, pages: 1 },
      });
      expect(meta).toMatchObject({
        charged: 4,
        credits_charged: 4,
        balance: 96,
        // The run's own hold is over once its settlement is written: only other holds would show.
        reserved: 0,
        settled: true,
        run_id: expect.stringMatching(/^run_/),
        dataset_id: expect.stringMatching(/^ds_/),
        row_count: 4,
        ignored_query_keys: [],
        warnings: [],
      });
      const dataset = await api(rde, 'GET', `/api/v2/datasets/${meta.dataset_id}`, { key });
      expect(dataset.status).toBe(200);
      expect(dataset.body.row_count).toBe(4);
      expect((await chargesOf(key, meta.run_id)).balance).toBe(96);
    });
  });

  describe('dry_run, preview and providers', () => {
    test.each(['dry_run', 'preview'])(
      '%s: the chain with each step’s worst case; no vendor call, no charge',
      async (flag) => {
        const key = await workspace();
        let response: Awaited<ReturnType<typeof search>> | undefined;
        const calls = await callsDuring(async () => {
          response = await search(key, { company_names: ['Acme Corp'], limit: 30, [flag]: true });
        });
        const { chain, _meta: meta } = response!.body;
        expect(chain.map((step: { step: string }) => step.step)).toEqual(VENDORS.map((vendor) => `${vendor}.search`));
        expect(chain[0]).toEqual({ step: 'pplgraph.search', would_run: true, worst_case_credits: 30 });
        expect(meta.would_charge_credits).toBe(
          chain.reduce((sum: number, step: { worst_case_credits: number }) => sum + step.worst_case_credits, 0),
        );
        expect(calls).toEqual(none);
        await expectNothingCharged(key);
      },
    );

    test('providers narrows and reorders the chain', async () => {
      const key = await workspace();
      const response = await search(key, {
        titles: ['Software Engineer'],
        providers: ['prospectdb', 'pplgraph'],
        limit: 3,
      });
      expect(response.body.steps.map((step: Step) => [step.step, step.outcome])).toEqual([
        ['prospectdb.search', null],
        ['pplgraph.search', 'skip'],
      ]);
      await chargesOf(key, response.body._meta.run_id);
    });

    test('an unknown provider is a 400 naming it; nothing runs or is charged', async () => {
      const key = await workspace();
      let response: Awaited<ReturnType<typeof search>> | undefined;
      const calls = await callsDuring(async () => {
        response = await search(key, { titles: ['Software Engineer'], providers: ['pplgraph', 'yellowpages'] });
      });
      expect(response!.status).toBe(400);
      expect(response!.body).toMatchObject({ error: 'unknown_provider', unknown: ['yellowpages'] });
      expect(response!.body.detail).toContain('yellowpages');
      expect(calls).toEqual(none);
      await expectNothingCharged(key);
    });
  });

  describe('the waterfall as a tool', () => {
    test('GET /tools lists people_search as a waterfall with its chain', async () => {
      const { body } = await api(rde, 'GET', '/tools?filter=waterfall');
      // Beside the four enrichment waterfalls (test/spec/enrichment-caps.test.ts).
      expect(body.results).toContainEqual(
        expect.objectContaining({
          name: 'people_search',
          kind: 'waterfall',
          chain: VENDORS.map((vendor) => `${vendor}.search`),
        }),
      );
    });

    test('POST /tools/people_search runs the search from payload', async () => {
      const key = await workspace();
      const response = await search(
        key,
        { payload: { titles: ['Software Engineer'], providers: ['pplgraph'], limit: 2 } },
        '/tools/people_search',
      );
      expect(response.status).toBe(200);
      expect(response.body.results).toHaveLength(2);
      expect((await chargesOf(key, response.body._meta.run_id)).charges).toHaveLength(1);
    });

    test('POST /tools/people_search refuses rows: a search waterfall takes payload only', async () => {
      const key = await workspace();
      let response: Awaited<ReturnType<typeof search>> | undefined;
      const calls = await callsDuring(async () => {
        response = await search(key, { rows: [{ titles: ['CTO'] }] }, '/tools/people_search');
      });
      expect(response!.status).toBe(400);
      expect(response!.body).toMatchObject({ error: 'invalid_payload', unknown: ['rows'] });
      expect(calls).toEqual(none);
      await expectNothingCharged(key);
    });
  });

  describe('bad input', () => {
    test.each([
      ['wrong type', { titles: 5 }, 422],
      ['wrong type in query', { query: { titles: { a: 1 } } }, 422],
      ['empty array', { titles: [] }, 422],
      ['10,000-element array', { titles: Array.from({ length: 10_000 }, (_, i) => `Title ${i}`) }, 422],
      ['unknown coverage', { titles: ['CTO'], coverage: 'most' }, 422],
      ['limit 0', { titles: ['CTO'], limit: 0 }, 422],
      ['negative limit', { titles: ['CTO'], limit: -3 }, 422],
      ['huge limit', { titles: ['CTO'], limit: 1_000_000_000 }, 422],
      ['limit in query out of range', { query: { titles: ['CTO'], limit: 0 } }, 422],
      ['providers not a list', { titles: ['CTO'], providers: 'pplgraph' }, 422],
      ['body not an object', ['titles'], 422],
    ])(
      'bad input (%s) is refused with the validation body; nothing runs or is charged',
      async (_name, body, status) => {
        const key = await workspace();
        let response: Awaited<ReturnType<typeof search>> | undefined;
        const calls = await callsDuring(async () => {
          response = await search(key, body);
        });
        expect(response!.status).toBe(status);
        expect(Array.isArray(response!.body.detail)).toBe(true);
        expect(response!.body.detail[0]).toEqual(
          expect.objectContaining({ loc: expect.any(Array), msg: expect.any(String), type: expect.any(String) }),
        );
        expect(calls).toEqual(none);
        await expectNothingCharged(key);
      },
    );

    test('a search needs a key', async () => {
      expect((await api(rde, 'POST', SEARCH, { key: null, body: { titles: ['CTO'] } })).status).toBe(401);
    });
  });
});
