/**
 * A 1,000-row `email_enrichment` with the sandbox vendors' latency and rate limits on: ten calls of
 * 100 rows (one workspace each, so each free grant covers its worst case), all at once. Prints the
 * wall time until every row is in its dataset beside the provider-bound limit, and their ratio.
 * Asserts nothing on time.
 *
 *   npx tsc -b && RDE_E2E_MODE=all npx tsx test/bench/enrich.bench.ts
 *
 * BENCH_ROWS (1000) sizes the run.
 *
 * The provider-bound limit is what the vendors alone impose on these rows, with the chain's stages
 * in order (MailFinder → BulkMail → Reachout) and every call sharing each vendor's token bucket:
 * the sync vendor's rate (lookups it answered beyond its burst ÷ its rate, plus its median
 * latency), then the batch jobs (batches beyond the submit burst ÷ the submit rate, plus one median
 * job duration), then the async vendor (a submit and at least one poll per lookup, beyond its
 * burst ÷ its rate, plus one median job duration). Requests a vendor refused with 429 are not work:
 * only answered ones count.
 */
import { api, sandboxCounters } from '../e2e/api';
import { mode, startRde, waitUntil, type RunningRde } from '../e2e/harness';

const ROWS = Number(process.env.BENCH_ROWS ?? 1_000);
const ROWS_PER_CALL = 100;

interface Knobs {
  latency_ms: { median: number };
  job_duration_ms: { median: number };
  rate_limit: { per_second: number; burst: number } | null;
}

async function main(): Promise<void> {
  const rde = await startRde({ RDE_SANDBOX_LATENCY_SCALE: '1', RDE_SANDBOX_RATE_LIMITS: 'true' });
  try {
    const calls = Math.ceil(ROWS / ROWS_PER_CALL);
    const keys = await workspaceKeys(rde, calls);
    const people = await Promise.all(
      Array.from({ length: ROWS }, async (_, i) => {
        const p = (await (await fetch(`${rde.sandboxUrl}/_admin/people/${30_000 + i}`)).json()) as {
          fullName: string;
          linkedinUrl: string;
          company: { domain: string };
        };
        return { name: p.fullName, company_domain: p.company.domain, linkedin_url: p.linkedinUrl };
      }),
    );
    console.log(
      `enrich bench: mode=${mode} rows=${ROWS} calls=${calls} of ${ROWS_PER_CALL} rows, vendor latency and rate limits on`,
    );

    const began = performance.now();
    const answers = await Promise.all(
      keys.map((key, i) =>
        api(rde, 'POST', '/enrich/email_enrichment', {
          key,
          body: { rows: people.slice(i * ROWS_PER_CALL, (i + 1) * ROWS_PER_CALL) },
        }),
      ),
    );
    const firstAnswer = (performance.now() - began) / 1000;
    for (const answer of answers) if (answer.status !== 200) throw new Error(`enrich: ${answer.status} ${answer.text}`);
    await Promise.all(
      answers.map((answer, i) =>
        waitUntil(async () => finished(rde, keys[i]!, answer.body._meta.dataset_id), 600_000, 500),
      ),
    );
    const wall = (performance.now() - began) / 1000;
    console.log(`  every row ended its walk after ${wall.toFixed(1)} s`);

    const counters = await sandboxCounters(rde);
    const { knobs } = (await (await fetch(`${rde.sandboxUrl}/_admin/knobs`)).json()) as {
      knobs: Record<string, Knobs>;
    };
    /** Requests the vendor answered (its 429 refusals are not work done). */
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
    const lookups = asked('reachout', 'submit');
    const stages = {
      mailfinder: beyondBurst('mailfinder', mailfinder) + knobs.mailfinder!.latency_ms.median / 1000,
      bulkmail: batches > 0 ? beyondBurst('bulkmail', batches) + knobs.bulkmail!.job_duration_ms.median / 1000 : 0,
      reachout: lookups > 0 ? beyondBurst('reachout', 2 * lookups) + knobs.reachout!.job_duration_ms.median / 1000 : 0,
    };
    const bound = stages.mailfinder + stages.bulkmail + stages.reachout;
    const rows = (
      await Promise.all(answers.map((answer, i) => datasetRows(rde, keys[i]!, answer.body._meta.dataset_id)))
    ).flat();
    const hits = rows.filter((row) => row.hit).length;
    const open = rows.filter((row) => row.reason === 'still_enriching').length;
    console.log(
      `  first answers (status ${answers.map((a) => a.body._meta.status).join('/')}) after ${firstAnswer.toFixed(1)} s`,
    );
    console.log(
      `  answered vendor requests: mailfinder ${mailfinder}, bulkmail batches ${batches}, reachout lookups ${lookups} and polls ${asked('reachout', 'poll')}; refused with 429: ${count429(counters)}`,
    );
    console.log(`  rows: ${rows.length}, hits ${hits}, left with an open job ${open}`);
    console.log(
      `  provider-bound limit ${bound.toFixed(1)} s (mailfinder ${stages.mailfinder.toFixed(1)} + bulkmail ${stages.bulkmail.toFixed(1)} + reachout ${stages.reachout.toFixed(1)})`,
    );
    console.log(`  wall time ${wall.toFixed(1)} s, ratio ${(wall / bound).toFixed(2)}x (goal <= 1.2x)`);
  } finally {
    await rde.stop();
  }
}

/** Fresh workspaces, each with its own free grant of 100 credits. */
async function workspaceKeys(rde: RunningRde, count: number): Promise<string[]> {
  const keys: string[] = [];
  for (let i = 0; i < count; i++) {
    const created = JSON.parse(
      await rde.admin(['create-workspace', '--email', `enrich-bench-${i}-${Date.now()}@example.test`]),
    ) as { key: string };
    keys.push(created.key);
  }
  return keys;
}

async function datasetRows(rde: RunningRde, key: string, datasetId: string): Promise<Record<string, unknown>[]> {
  return (await api(rde, 'GET', `/api/v2/datasets/${datasetId}/rows?limit=100`, { key })).body.rows;
}

/** Every row of the dataset has ended its walk (a verdict, or `still_enriching`). */
async function finished(rde: RunningRde, key: string, datasetId: string): Promise<boolean> {
  return (await datasetRows(rde, key, datasetId)).every((row) => (row.steps as unknown[]).length > 0);
}

function count429(counters: Record<string, Record<string, { statuses: Record<string, number> }>>): number {
  return Object.values(counters)
    .flatMap((endpoints) => Object.values(endpoints))
    .reduce((sum, endpoint) => sum + (endpoint.statuses['429'] ?? 0), 0);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
