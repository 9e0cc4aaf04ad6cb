/**
 * A 10,000-row `email_enrichment` dataset run (POST /enrich/run, detached, polled) with the sandbox
 * vendors' latency and rate limits on, with one and with two waterfall replicas (distributed mode).
 * Prints the wall time until the run completed beside the provider-bound limit and their ratio,
 * and the peak resident memory of every process during the run. Asserts nothing on time.
 *
 *   eval "$(deploy/backends.sh env)" && pnpm run build && pnpm exec tsx test/bench/runs.bench.ts
 *
 * BENCH_ROWS (10000) sizes the run; BENCH_REPLICAS ("1,2") lists the waterfall replica counts.
 * Without the backends' env it runs once in all-in-one mode.
 *
 * A workspace holds its free grant of 100 credits, so the vendors' hit rates are turned down until
 * the run's hits fit in it (every row is still asked: a miss goes down the chain, the most vendor
 * work a row can cause) and chunks are 20 rows (a chunk holds its rows' worst case while it walks,
 * so 100 credits less the few hits let four walk at once: the run is then bound by the vendors, not
 * by its budget).
 * Rows carry a name and a company domain and no LinkedIn URL, so the chain is MailFinder (sync,
 * rate-limited) then BulkMail (batch jobs); Reachout needs a LinkedIn URL and is a free skip.
 * The provider-bound limit: the answered MailFinder lookups beyond its burst ÷ its rate plus its
 * median latency, then the BulkMail batches beyond the submit burst ÷ the submit rate plus one
 * median job duration (as enrich.bench.ts).
 */
import { readFileSync } from 'node:fs';
import { api, sandboxCounters } from '../e2e/api';
import { startRde, waitUntil, type Mode, type RunningRde } from '../e2e/harness';

const ROWS = Number(process.env.BENCH_ROWS ?? 10_000);
const REPLICAS = (process.env.BENCH_REPLICAS ?? '1,2').split(',').map(Number);
const MODE: Mode = process.env.RDE_MONGO_URL ? 'distributed' : 'all';
const MODULES = ['auth', 'billing', 'catalog', 'waterfall', 'dataset', 'workflow', 'mcp'];
const MiB = 1024 * 1024;

interface Knobs {
  latency_ms: { median: number };
  job_duration_ms: { median: number };
  rate_limit: { per_second: number; burst: number } | null;
}

async function main(): Promise<void> {
  for (const replicas of MODE === 'distributed' ? REPLICAS : [1]) await measure(replicas);
}

async function measure(replicas: number): Promise<void> {
  const rde = await startRde(
    { RDE_SANDBOX_LATENCY_SCALE: '1', RDE_SANDBOX_RATE_LIMITS: 'true', RDE_ENRICH_RUN_CHUNK_ROWS: '20' },
    MODE,
    { replicas: { waterfall: replicas } },
  );
  try {
    const { key } = JSON.parse(
      await rde.admin(['create-workspace', '--email', `runs-bench-${replicas}-${Date.now()}@example.test`]),
    ) as { key: string };
    // About 10 hits in all, whatever ROWS is: the free grant then keeps four chunks' worst case free.
    await knob(rde, 'mailfinder', { hit_rate_multiplier: Math.min(1, 10 / (ROWS * 0.55)) });
    await knob(rde, 'bulkmail', { hit_rate_multiplier: 0 });
    const rows = await people(rde, ROWS);
    console.log(
      `runs bench: mode=${MODE} waterfall replicas=${replicas} rows=${ROWS}, chunks of 20, vendor latency and rate limits on`,
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

    const bound = await providerBound(rde);
    console.log(`  handle after ${firstAnswer.toFixed(1)} s; run ${run._meta.status} after ${wall.toFixed(1)} s`);
    console.log(
      `  summary: enriched ${run.summary.enriched}, missed ${run.summary.missed}, still enriching ${run.summary.still_enriching}, not reached ${run.summary.not_reached}; charged ${run._meta.credits_charged} credits`,
    );
    console.log(
      `  answered vendor requests: mailfinder ${bound.mailfinder}, bulkmail batches ${bound.batches}; refused with 429: ${bound.refused}`,
    );
    console.log(
      `  provider-bound limit ${bound.seconds.toFixed(1)} s (mailfinder ${bound.stages.mailfinder.toFixed(1)} + bulkmail ${bound.stages.bulkmail.toFixed(1)})`,
    );
    console.log(`  wall time ${wall.toFixed(1)} s, ratio ${(wall / bound.seconds).toFixed(2)}x (goal <= 1.2x)`);
    console.log('  resident memory per process, before the run -> peak during it (goal: flat, < 300 MB):');
    for (const line of memory.report()) console.log(`    ${line}`);
  } finally {
    await rde.stop();
  }
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

async function knob(rde: RunningRde, vendor: string, patch: object): Promise<void> {
  const response = await fetch(`${rde.sandboxUrl}/_admin/knobs/${vendor}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(patch),
  });
  if (response.status !== 200) throw new Error(`knobs ${vendor}: ${response.status}`);
}

/** What the vendors alone impose on the requests they answered (see the header). */
async function providerBound(rde: RunningRde) {
  const counters = await sandboxCounters(rde);
  const { knobs } = (await (await fetch(`${rde.sandboxUrl}/_admin/knobs`)).json()) as {
    knobs: Record<string, Knobs>;
  };
  const asked = (vendor: string, endpoint: string) => {
    const count = counters[vendor]?.[endpoint];
    return count ? count.requests - (count.statuses['429'] ?? 0) : 0;
  };
  const beyondBurst = (vendor: string, requests: number) => {
    const limit = knobs[vendor]!.rate_limit;
    return limit ? Math.max(0, requests - limit.burst) / limit.per_second : 0;
  };
  const mailfinder = asked('mailfinder', 'find');
  const batches = asked('bulkmail', 'submit');
  const stages = {
    mailfinder: beyondBurst('mailfinder', mailfinder) + knobs.mailfinder!.latency_ms.median / 1000,
    bulkmail: batches > 0 ? beyondBurst('bulkmail', batches) + knobs.bulkmail!.job_duration_ms.median / 1000 : 0,
  };
  const refused = Object.values(counters)
    .flatMap((endpoints) => Object.values(endpoints))
    .reduce((sum, endpoint) => sum + (endpoint.statuses['429'] ?? 0), 0);
  return { mailfinder, batches, refused, stages, seconds: stages.mailfinder + stages.bulkmail };
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
