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
 * The provider-bound limit is what the vendors alone impose on these rows (providerBound in lib.ts):
 * the chain's stages (MailFinder → BulkMail → Reachout, a submit and a poll per lookup) pipelined,
 * each vendor's token bucket shared by every call; only requests a vendor answered count.
 */
import { api } from '../e2e/api';
import { mode, startRde, waitUntil, type RunningRde } from '../e2e/harness';
import { EMAIL_CHAIN, describeProviderBound, providerBound } from './lib';

const ROWS = Number(process.env.BENCH_ROWS ?? 1_000);
const ROWS_PER_CALL = 100;

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

    const bound = await providerBound(rde, EMAIL_CHAIN);
    const rows = (
      await Promise.all(answers.map((answer, i) => datasetRows(rde, keys[i]!, answer.body._meta.dataset_id)))
    ).flat();
    const hits = rows.filter((row) => row.hit).length;
    const open = rows.filter((row) => row.reason === 'still_enriching').length;
    console.log(
      `  first answers (status ${answers.map((a) => a.body._meta.status).join('/')}) after ${firstAnswer.toFixed(1)} s`,
    );
    console.log(`  rows: ${rows.length}, hits ${hits}, left with an open job ${open}`);
    for (const line of describeProviderBound(bound, wall)) console.log(`  ${line}`);
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

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
