/**
 * A 10,000-row `email_enrichment` dataset run (POST /enrich/run, detached, polled) with the sandbox
 * vendors' latency and rate limits on, with one and with two waterfall replicas (distributed mode).
 * Prints the wall time until the run completed beside the provider-bound limit and their ratio,
 * and the peak resident memory of every process during the run. Asserts nothing on time.
 *
 *   eval "$(deploy/backends.sh env)" && pnpm run build && pnpm exec tsx test/bench/runs.bench.ts
 *
 * BENCH_ROWS (10000) sizes the run; BENCH_REPLICAS ("1,2") lists the waterfall replica counts;
 * BENCH_HITS=natural keeps the sandbox's own hit rates (rows found are charged and settled through
 * billing while the run goes on) instead of none.
 * Without the backends' env it runs once in all-in-one mode. Payments go to stripe-mock
 * (deploy/backends.sh; RDE_STRIPE_API_BASE, else its default address).
 *
 * The workspace gets its credits as a customer does: a Starter subscription, then top-ups bought
 * through the credit checkout and granted by the provider's signed webhook, until the balance
 * covers the run's worst case (the estimate), so the run is bound by the vendors, never by its
 * budget; the chunk size and slots are the product's defaults. By default the vendors' hit rates
 * are turned to zero so every row walks the whole chain (the most vendor work a row can cause). Rows carry a
 * name and a company domain and no LinkedIn URL, so the chain is MailFinder (sync, rate-limited)
 * then BulkMail (batch jobs of up to 100 rows); Reachout needs a LinkedIn URL and is a free skip.
 *
 * The provider-bound limit (providerBound in lib.ts): the stages pipeline (a chunk's BulkMail job
 * runs while MailFinder answers other rows), so the run cannot end before the slower stage served
 * its last request and that row went through the other stage: max(MailFinder lookups beyond its
 * burst ÷ its rate, BulkMail submits beyond its burst ÷ its submit rate) plus MailFinder's median
 * latency plus one BulkMail job's median duration. The serial sum of both stages, which this bench
 * printed before and which overstates the bound, is printed beside it.
 *
 * The product's defaults throughout: chunks of 100, four slots per replica, the 15-minute hold the
 * run renews while it runs (decision 0031).
 */
import { readFileSync } from 'node:fs';
import { api, sandboxKnobs } from '../e2e/api';
import { startRde, waitUntil, type Mode, type RunningRde } from '../e2e/harness';
import { STRIPE_ENV, deliverSigned, paidCreditCheckout, subscriptionCreated } from '../e2e/stripe';
import { EMAIL_CHAIN, describeProviderBound, providerBound } from './lib';

const ROWS = Number(process.env.BENCH_ROWS ?? 10_000);
const REPLICAS = (process.env.BENCH_REPLICAS ?? '1,2').split(',').map(Number);
const MODE: Mode = process.env.RDE_MONGO_URL ? 'distributed' : 'all';
const MODULES = ['auth', 'billing', 'catalog', 'waterfall', 'dataset', 'workflow', 'mcp'];
const MiB = 1024 * 1024;
const NATURAL_HITS = process.env.BENCH_HITS === 'natural';

async function main(): Promise<void> {
  for (const replicas of MODE === 'distributed' ? REPLICAS : [1]) await measure(replicas);
}

async function measure(replicas: number): Promise<void> {
  const rde = await startRde(
    {
      ...STRIPE_ENV,
      RDE_SANDBOX_LATENCY_SCALE: '1',
      RDE_SANDBOX_RATE_LIMITS: 'true',
    },
    MODE,
    { replicas: { waterfall: replicas } },
  );
  try {
    const rows = await people(rde, ROWS);
    const key = await customerWithCredits(rde, `runs-bench-${replicas}-${Date.now()}@example.test`, rows);
    if (!NATURAL_HITS) {
      await sandboxKnobs(rde, 'mailfinder', { hit_rate_multiplier: 0 });
      await sandboxKnobs(rde, 'bulkmail', { hit_rate_multiplier: 0 });
    }
    console.log(
      `runs bench: mode=${MODE} waterfall replicas=${replicas} rows=${ROWS}, hit rates ${NATURAL_HITS ? "the sandbox's own" : 'none'}, vendor latency and rate limits on, load average ${loadAverage()}`,
    );

    const memory = new MemorySampler(processesOf(rde));
    const began = performance.now();
    const started = await api(rde, 'POST', '/enrich/run', {
      key,
      body: { input_rows: rows, steps: ['email_enrichment'], detach: true },
    });
    if (started.status !== 200) throw new Error(`enrich run: ${started.status} ${started.text}`);
    const firstAnswer = (performance.now() - began) / 1000;
    const runId = started.body._meta.run_id as string;
    let run = started.body;
    await waitUntil(
      async () => {
        run = (await api(rde, 'GET', `/enrich/runs/${runId}`, { key })).body;
        return run._meta.status !== 'running';
      },
      3_600_000,
      500,
    );
    const wall = (performance.now() - began) / 1000;
    memory.stop();

    const bound = await providerBound(rde, EMAIL_CHAIN);
    console.log(`  handle after ${firstAnswer.toFixed(1)} s; run ${run._meta.status} after ${wall.toFixed(1)} s`);
    console.log(
      `  summary: enriched ${run.summary.enriched}, missed ${run.summary.missed}, still enriching ${run.summary.still_enriching}, not reached ${run.summary.not_reached}; charged ${run._meta.credits_charged} credits`,
    );
    for (const line of describeProviderBound(bound, wall)) console.log(`  ${line}`);
    console.log(`  load average at the end ${loadAverage()}`);
    console.log('  resident memory per process, before the run -> peak during it (goal: flat, < 300 MB):');
    for (const line of memory.report()) console.log(`    ${line}`);
  } finally {
    await rde.stop();
  }
}

/**
 * A workspace whose balance covers the run's worst case, bought as a customer buys it: a Starter
 * subscription, then top-ups through the credit checkout, each granted by the provider's signed
 * webhook reporting its session paid (the largest tier while the gap is wider, then the smallest
 * that closes it).
 */
async function customerWithCredits(rde: RunningRde, email: string, rows: object[]): Promise<string> {
  const { key, workspace_id: workspaceId } = JSON.parse(await rde.admin(['create-workspace', '--email', email])) as {
    key: string;
    workspace_id: string;
  };
  await delivered(rde, subscriptionCreated(workspaceId));
  const plans = await api(rde, 'GET', '/api/v2/billing/plans', { key: null });
  const tiers = (plans.body.topup_tiers as { credits: number }[]).map((tier) => tier.credits).sort((a, b) => a - b);
  const estimate = await api(rde, 'POST', '/enrich/run', {
    key,
    body: { input_rows: rows, steps: ['email_enrichment'], estimate: true },
  });
  const worstCase = estimate.body._meta.would_charge_credits as number;
  for (let purchase = 0; ; purchase++) {
    const { balance } = (await api(rde, 'GET', '/billing/balance', { key })).body;
    const gap = worstCase - (balance as number);
    if (gap <= 0) return key;
    const credits = tiers.find((tier) => tier >= gap) ?? tiers[tiers.length - 1]!;
    const checkout = await api(rde, 'POST', '/api/v2/billing/credits/checkout', { key, body: { credits } });
    if (checkout.status !== 200) throw new Error(`credit checkout: ${checkout.status} ${checkout.text}`);
    await delivered(rde, paidCreditCheckout(workspaceId, `cs_bench_${workspaceId}_${purchase}`, credits));
  }
}

async function delivered(rde: RunningRde, event: object): Promise<void> {
  const response = await deliverSigned(rde, JSON.stringify(event));
  if (response.status !== 200) throw new Error(`webhook: ${response.status} ${response.text}`);
}

function loadAverage(): string {
  return readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
}

/** The processes of this start: one in all-in-one mode; the sandbox, every replica and the gateway otherwise. */
function processesOf(rde: RunningRde): Map<string, number> {
  const names = MODE === 'all' ? ['all'] : ['sandbox', ...MODULES.flatMap((m) => rde.replicasOf(m)), 'gateway'];
  return new Map(names.map((name) => [name, rde.processOf(name).pid!]));
}

/** Samples each process's resident set (VmRSS in /proc) every 250 ms. */
class MemorySampler {
  private readonly baseline = new Map<string, number>();
  private readonly peak = new Map<string, number>();
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly pids: Map<string, number>) {
    for (const [name, pid] of pids) this.baseline.set(name, rss(pid));
    this.sample();
    this.timer = setInterval(() => this.sample(), 250);
  }

  stop(): void {
    clearInterval(this.timer);
    this.sample();
  }

  report(): string[] {
    return [...this.pids.keys()].map(
      (name) =>
        `${name.padEnd(12)} ${(this.baseline.get(name)! / MiB).toFixed(0).padStart(4)} MiB -> ${(this.peak.get(name)! / MiB).toFixed(0).padStart(4)} MiB`,
    );
  }

  private sample(): void {
    for (const [name, pid] of this.pids) this.peak.set(name, Math.max(this.peak.get(name) ?? 0, rss(pid)));
  }
}

function rss(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) * 1024 : 0;
}

/** The sandbox's people as rows with a name and an employer domain. */
async function people(rde: RunningRde, count: number): Promise<object[]> {
  const rows: object[] = [];
  for (let from = 0; from < count; from += 200) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(200, count - from) }, async (_, i) => {
        const p = (await (await fetch(`${rde.sandboxUrl}/_admin/people/${80_000 + from + i}`)).json()) as {
          fullName: string;
          company: { domain: string };
        };
        return { name: p.fullName, company_domain: p.company.domain };
      }),
    );
    rows.push(...batch);
  }
  return rows;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
