/**
 * A large dataset enriched into a new dataset (decision 0047): builds BENCH_ROWS (50,000) rows of
 * about 260 bytes (13 MB of JSON, three 4 MiB gRPC messages' worth) through the gateway with one
 * create and 10,000-row appends, then runs `email_enrichment` over a short range (BENCH_RANGE,
 * 0:20) into a new dataset: the run's start copies every row inside the dataset service. Prints
 * the time of the appends, of the run (copy included) and of reading the output back page by
 * page, and each process's peak resident memory (VmHWM) at the end. Vendors answer at once; the
 * range keeps the run within the free grant. Asserts nothing on time.
 *
 *   pnpm run build && pnpm exec tsx test/bench/runs-large.bench.ts                                 (all-in-one)
 *   eval "$(deploy/backends.sh env)" && pnpm run build && pnpm exec tsx test/bench/runs-large.bench.ts   (distributed)
 */
import { readFileSync } from 'node:fs';
import { api } from '../e2e/api';
import { startRde, type Mode, type RunningRde } from '../e2e/harness';

const ROWS = Number(process.env.BENCH_ROWS ?? 50_000);
const RANGE = process.env.BENCH_RANGE ?? '0:20';
const PART = 10_000;
const PAGE = 1_000;
const MODE: Mode = process.env.RDE_MONGO_URL ? 'distributed' : 'all';
const MiB = 1024 * 1024;

const rowAt = (i: number) => ({
  name: `Lead ${i}`,
  company_domain: `company-${i % 5_000}.example`,
  linkedin_url: `https://www.linkedin.com/in/lead-${i}`,
  notes: 'n'.repeat(150),
});
const rows = (from: number, count: number) => Array.from({ length: count }, (_, i) => rowAt(from + i));

async function main(): Promise<void> {
  const rde = await startRde({ RDE_SANDBOX_LATENCY_SCALE: '0', RDE_SANDBOX_RATE_LIMITS: 'false' }, MODE);
  try {
    const { key } = JSON.parse(
      await rde.admin(['create-workspace', '--email', `runs-large-bench-${Date.now()}@example.test`]),
    ) as { key: string };
    const bytes = Buffer.byteLength(JSON.stringify(rows(0, ROWS)));
    console.log(`runs-large bench: mode=${MODE} rows=${ROWS} (${(bytes / MiB).toFixed(1)} MiB of JSON) range=${RANGE}`);

    let started = Date.now();
    const created = await call(rde, key, 'POST', '/api/v2/datasets', { name: 'bench', rows: rows(0, PART) }, 201);
    const input = created.id as string;
    for (let offset = PART; offset < ROWS; offset += PART) {
      const part = rows(offset, Math.min(PART, ROWS - offset));
      await call(rde, key, 'POST', `/api/v2/datasets/${input}/rows`, { offset, rows: part }, 200);
    }
    console.log(`  create + ${Math.ceil(ROWS / PART) - 1} appends: ${seconds(started)} s`);

    started = Date.now();
    const run = await call(rde, key, 'POST', '/enrich/run', { input, steps: ['email_enrichment'], range: RANGE }, 200);
    console.log(`  run into a new dataset (copy of ${ROWS} rows included): ${seconds(started)} s, ${run._meta.status}`);

    started = Date.now();
    let read = 0;
    for (let offset = 0; offset < ROWS; offset += PAGE) {
      const page = await call(
        rde,
        key,
        'GET',
        `/api/v2/datasets/${run._meta.dataset_id}/rows?offset=${offset}&limit=${PAGE}`,
      );
      read += (page.rows as unknown[]).length;
    }
    console.log(`  read back ${read} rows in pages of ${PAGE}: ${seconds(started)} s`);
    console.log('  peak resident memory (VmHWM):');
    for (const name of processes(rde)) console.log(`    ${name.padEnd(12)} ${peakMiB(rde, name)} MiB`);
  } finally {
    await rde.stop();
  }
}

async function call(rde: RunningRde, key: string, method: string, path: string, body?: object, status = 200) {
  const response = await api(rde, method, path, { key, body });
  if (response.status !== status)
    throw new Error(`${method} ${path}: ${response.status} ${response.text.slice(0, 300)}`);
  return response.body;
}

const seconds = (since: number) => ((Date.now() - since) / 1000).toFixed(1);

function processes(rde: RunningRde): string[] {
  return MODE === 'all' ? ['all'] : ['gateway', 'dataset', ...rde.replicasOf('waterfall')];
}

function peakMiB(rde: RunningRde, name: string): string {
  const status = readFileSync(`/proc/${rde.processOf(name).pid!}/status`, 'utf8');
  return (Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 1024).toFixed(0);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
