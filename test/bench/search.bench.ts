/**
 * People search through the gateway with vendor latency on: a 3-step walk (PeopleGraph, ProspectDB,
 * WebScout on a company the databases cannot fill) against the sum of the same three vendor requests
 * made directly to the sandbox, one after the other. `single` walks the steps in order (the
 * waterfall); `max` runs them at once. The ratio of the medians is what RDE adds on top of the
 * vendors (below 1 when steps overlap). Prints figures; asserts nothing on time.
 *
 *   npx tsc -b && RDE_E2E_MODE=all npx tsx test/bench/search.bench.ts
 *   eval "$(deploy/backends.sh env)" && RDE_E2E_MODE=distributed npx tsx test/bench/search.bench.ts
 *
 * BENCH_SEARCHES (15) sizes the run.
 */
import { api } from '../e2e/api';
import { mode, startRde, type RunningRde } from '../e2e/harness';

const SEARCHES = Number(process.env.BENCH_SEARCHES ?? 15);
const COMPANY = 'Acme Corp';
/** More than the databases hold for the company, so `single` walks on to the third step. */
const LIMIT = 40;
const PROVIDERS = ['pplgraph', 'prospectdb', 'webscout'];
/** A search of each coverage holds up to 43 credits: a fresh free grant (100 credits) covers one round. */
const ROUNDS_PER_WORKSPACE = 1;
const bodyOf = (coverage: string) => ({ company_names: [COMPANY], coverage, limit: LIMIT, providers: PROVIDERS });

async function main(): Promise<void> {
  // Vendor latency at its defaults; rate limits off so the direct calls never wait on a bucket.
  const rde = await startRde({ RDE_SANDBOX_RATE_LIMITS: 'false' });
  try {
    console.log(`search bench: mode=${mode} searches=${SEARCHES} vendor latency=on steps=${PROVIDERS.join(',')}`);
    await search(rde, await workspaceKey(rde), 'max'); // warm-up: connections, JIT
    const single: number[] = [];
    const max: number[] = [];
    const vendors: number[] = [];
    let key = '';
    for (let i = 0; i < SEARCHES; i++) {
      if (i % ROUNDS_PER_WORKSPACE === 0) key = await workspaceKey(rde);
      single.push(await timed(() => search(rde, key, 'single')));
      max.push(await timed(() => search(rde, key, 'max')));
      vendors.push(await timed(() => vendorsDirectly(rde)));
    }
    report('the 3 vendor requests, direct, one after the other', vendors);
    report('search, coverage single (steps in order)', single);
    console.log(`  ratio of medians ${(median(single) / median(vendors)).toFixed(2)}`);
    report('search, coverage max (steps at once)', max);
    console.log(`  ratio of medians ${(median(max) / median(vendors)).toFixed(2)}`);
  } finally {
    await rde.stop();
  }
}

async function workspaceKey(rde: RunningRde): Promise<string> {
  const created = JSON.parse(
    await rde.admin(['create-workspace', '--email', `bench-search-${Date.now()}-${Math.random()}@example.test`]),
  ) as { key: string };
  return created.key;
}

async function search(rde: RunningRde, key: string, coverage: string): Promise<void> {
  const response = await api(rde, 'POST', '/search/people_search', { key, body: bodyOf(coverage) });
  if (response.status !== 200) throw new Error(`search answered ${response.status}: ${response.text}`);
  const ran = response.body.steps.filter((step: { counts: { pages: number } }) => step.counts.pages > 0).length;
  if (ran !== 3) throw new Error(`expected 3 steps to call their vendor, ${ran} did: ${response.text}`);
}

/** The requests the walk sends, in its order, with the sandbox's development keys. */
async function vendorsDirectly(rde: RunningRde): Promise<void> {
  const base = rde.sandboxUrl;
  const json = { 'content-type': 'application/json' };
  const people = new URLSearchParams({ company_name: COMPANY, per_page: '20', page: '1' });
  for (const [url, init] of [
    [
      `${base}/pplgraph/v1/people/search`,
      {
        method: 'POST',
        headers: { ...json, 'x-api-key': 'sbx-pplgraph-5f2c9a' },
        body: JSON.stringify({ query: { job_company_name: [COMPANY] }, size: LIMIT }),
      },
    ],
    [`${base}/prospectdb/api/v1/people?${people}`, { headers: { authorization: 'Bearer sbx-prospectdb-81d4e0' } }],
    [
      `${base}/webscout/v2/search`,
      {
        method: 'POST',
        headers: { ...json, 'x-webscout-key': 'sbx-webscout-c39b71' },
        body: JSON.stringify({ company: COMPANY, max_results: 10 }),
      },
    ],
  ] as const) {
    const response = await fetch(url, init);
    if (!response.ok) throw new Error(`${url} answered ${response.status}`);
    await response.arrayBuffer();
  }
}

async function timed(work: () => Promise<void>): Promise<number> {
  const began = performance.now();
  await work();
  return performance.now() - began;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

function report(name: string, milliseconds: number[]): void {
  const sorted = [...milliseconds].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))].toFixed(0);
  console.log(
    `${name}: n=${sorted.length} median ${at(0.5)} ms, p99 ${at(0.99)} ms, max ${sorted.at(-1)!.toFixed(0)} ms`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
