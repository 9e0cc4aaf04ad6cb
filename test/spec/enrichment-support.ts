import { api, sandboxCounters, sandboxKnobs } from '../e2e/api';
import { mode, waitUntil, type RunningRde } from '../e2e/harness';

/** Helpers for the enrichment spec suites: workspaces, sandbox people, ledger, vendor counters and knobs. */

export interface Person {
  fullName: string;
  firstName: string;
  lastName: string;
  linkedinUrl: string;
  workEmail: string;
  personalEmail: string;
  mobilePhone: string;
  company: { name: string; domain: string };
}

export interface LedgerEntry {
  id: string;
  kind: string;
  amount: number;
}

export interface Step {
  step: string;
  outcome: string;
  charged: number;
  detail?: string;
  job_id?: string;
  resume?: { tool: string; method: string; id_arg: string };
  matched_name?: string | null;
}

export type EnrichedRow = Record<string, unknown> & { hit: boolean; steps: Step[] };

export const ENRICH_VENDORS = [
  'mailfinder',
  'bulkmail',
  'reachout',
  'persona',
  'homebase',
  'verimail',
  'profilely',
  'litepro',
  'dialbook',
  'ringdirect',
] as const;

/** Vendors that answer at once without rate limits, and a short poll budget. */
const QUICK_VENDORS_ENV = {
  RDE_SANDBOX_LATENCY_SCALE: '0',
  RDE_SANDBOX_RATE_LIMITS: 'false',
  RDE_ENRICH_POLL_BUDGET_MS: '2500',
  RDE_ENRICH_POLL_INTERVAL_MS: '200',
};

/** Quick vendors and a short detach: the enrichment rules' suites. */
export const QUICK_ENRICHMENT_ENV = { ...QUICK_VENDORS_ENV, RDE_ENRICH_DETACH_MS: '1500' };

/**
 * Quick vendors, runs cut into chunks of 10 rows (so every run is worked as several chunks), a
 * short detach and a frequent sweep: the dataset runs' suites.
 */
export const QUICK_RUNS_ENV = {
  ...QUICK_VENDORS_ENV,
  RDE_ENRICH_RUN_CHUNK_ROWS: '10',
  RDE_ENRICH_RUN_DETACH_MS: '1000',
  RDE_ENRICH_RUN_SWEEP_MS: '300',
};

export function enrichmentSupport(rde: () => RunningRde) {
  let workspaces = 0;

  /** A fresh workspace with its free grant of 100 credits, so each rule reads its own ledger. */
  async function workspace(): Promise<string> {
    workspaces += 1;
    const created = JSON.parse(
      await rde().admin(['create-workspace', '--email', `enrich.${mode}.${workspaces}.${Date.now()}@example.com`]),
    ) as { key: string };
    return created.key;
  }

  async function person(index: number): Promise<Person> {
    return (await (await fetch(`${rde().sandboxUrl}/_admin/people/${index}`)).json()) as Person;
  }

  /** `count` sandbox people from `from` on, as rows with a name and an employer domain. */
  async function peopleRows(from: number, count: number) {
    return (await Promise.all(Array.from({ length: count }, (_, i) => person(from + i)))).map((p) => rowOf(p));
  }

  /** Staff of a (hard-case) company as a people database lists them: name, LinkedIn URL, employer domain. */
  async function staffOf(
    company: string,
    size = 10,
  ): Promise<{ full_name: string; linkedin_url: string; job_company_website: string }[]> {
    const response = await fetch(`${rde().sandboxUrl}/pplgraph/v1/people/search`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': 'sbx-pplgraph-5f2c9a' },
      body: JSON.stringify({ query: { job_company_name: [company] }, size }),
    });
    return ((await response.json()) as { data: never[] }).data;
  }

  /** Changes vendors' knobs (hit rate, job duration…) for one test; `resetKnobs` puts the defaults back. */
  async function knobs(vendor: string, patch: object): Promise<void> {
    await sandboxKnobs(rde(), vendor, patch);
  }

  async function resetKnobs(): Promise<void> {
    await fetch(`${rde().sandboxUrl}/_admin/reset`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ counters: false, knobs: true, jobs: false }),
    });
  }

  /** Requests each enrichment vendor endpoint received so far, as `vendor.endpoint`. */
  async function calls(): Promise<Record<string, number>> {
    const counters = await sandboxCounters(rde());
    const counts: Record<string, number> = {};
    for (const vendor of ENRICH_VENDORS) {
      for (const [endpoint, count] of Object.entries(counters[vendor] ?? {}))
        counts[`${vendor}.${endpoint}`] = count.requests;
    }
    return counts;
  }

  /** The vendor calls a piece of work caused (only the endpoints that were called). */
  async function callsDuring<T>(work: () => Promise<T>): Promise<{ result: T; calls: Record<string, number> }> {
    const before = await calls();
    const result = await work();
    const after = await calls();
    const delta = Object.fromEntries(
      Object.entries(after)
        .map(([name, count]) => [name, count - (before[name] ?? 0)] as const)
        .filter(([, count]) => count > 0),
    );
    return { result, calls: delta };
  }

  const balanceOf = async (key: string) => (await api(rde(), 'GET', '/billing/balance', { key })).body;

  /** Waits until billing applied every settlement and released every hold, then reads the balance. */
  async function settled(key: string, timeoutMs = 30_000) {
    await waitUntil(async () => (await balanceOf(key))._meta.settled === true, timeoutMs, 250);
    return balanceOf(key);
  }

  /** The workspace's ledger, oldest first (CSV export). */
  async function ledger(key: string): Promise<LedgerEntry[]> {
    const csv = (await api(rde(), 'GET', '/api/v2/billing/ledger.csv', { key })).text;
    return csv
      .trimEnd()
      .split('\n')
      .slice(1)
      .map((line) => {
        const [id, , kind, amount] = line.split(',');
        return { id: id!, kind: kind!, amount: Math.abs(Number(amount)) };
      });
  }

  /** Charges on the ledger (everything but the grant). */
  const charges = async (key: string) => (await ledger(key)).filter((entry) => entry.kind !== 'grant');

  /** A dataset's rows, in order. */
  async function datasetRows(key: string, datasetId: string): Promise<EnrichedRow[]> {
    const response = await api(rde(), 'GET', `/api/v2/datasets/${datasetId}/rows?limit=100`, { key });
    return response.body.rows as EnrichedRow[];
  }

  /** A detached `email_enrichment` run of `rows`, as the runs suites start them. */
  const startRun = (key: string, rows: object[]) =>
    api(rde(), 'POST', '/enrich/run', { key, body: { input_rows: rows, steps: ['email_enrichment'], detach: true } });
  const pollRun = async (key: string, runId: string) =>
    (await api(rde(), 'GET', `/enrich/runs/${runId}`, { key })).body;
  /** The run's record once it is no longer running. */
  async function endedRun(key: string, runId: string, timeoutMs: number) {
    await waitUntil(async () => (await pollRun(key, runId))._meta.status !== 'running', timeoutMs, 250);
    return pollRun(key, runId);
  }

  return {
    workspace,
    person,
    peopleRows,
    staffOf,
    knobs,
    resetKnobs,
    startRun,
    pollRun,
    endedRun,
    calls,
    callsDuring,
    settled,
    ledger,
    charges,
    datasetRows,
  };
}

/** What a row's steps charged, in credits. */
/** A provider job's hit is the run's row and step, as a synchronous hit (decision 0082): written once however often the job is submitted. */
export const JOB_HIT_CHARGE = /^enr_[0-9a-f]+:0:ringdirect\.submit$/;

export const chargedOf = (row: EnrichedRow) => row.steps.reduce((sum, step) => sum + step.charged, 0);

export const rowOf = (p: Person, extra: object = {}) => ({
  name: p.fullName,
  company_domain: p.company.domain,
  linkedin_url: p.linkedinUrl,
  ...extra,
});
