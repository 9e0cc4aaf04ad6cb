/**
 * CSV export of a large dataset: creates BENCH_ROWS (1,000,000) rows through the dataset store,
 * then streams the CSV through the real gRPC server and client, discarding the chunks as a
 * download would. Prints rows/s and the process's resident memory before and during the export,
 * to show that the export holds about one chunk, not the dataset. Asserts nothing on time.
 *
 *   npx tsc -b && npx tsx --expose-gc test/bench/dataset-csv.bench.ts
 *   eval "$(deploy/backends.sh env)" && npx tsx --expose-gc test/bench/dataset-csv.bench.ts   (real store)
 *
 * With the embedded store the rows themselves live in this process, so the figure that matters is
 * the growth during the export, not the resident total. --expose-gc lets the bench collect the
 * creation's garbage first; without it that garbage is still being collected during the export.
 */
import { createBackends, createLogger, namespacedBackends, systemClock, type Backends } from '@rde/platform';
import { CreateDataset } from '../../services/dataset/src/app/create-dataset';
import type { DatasetContext } from '../../services/dataset/src/app/dataset-context';
import { DeleteDataset } from '../../services/dataset/src/app/delete-dataset';
import { DatasetsRepository } from '../../services/dataset/src/store/datasets';
import { RowsRepository } from '../../services/dataset/src/store/rows';
import { UsageRepository } from '../../services/dataset/src/store/usage';
import { serveDatasets } from '../../services/dataset/test/service';

const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const WRITE_BATCH = 1_000;
const CALLER = { workspaceId: 'ws_bench', userId: 'usr_bench', role: 'owner', keyId: '', sessionId: '', requestId: '' };
const MiB = 1024 * 1024;

function backendsFromEnv(): Backends {
  const mongoUrl = process.env.RDE_MONGO_URL;
  const logger = createLogger('bench', 'warn');
  return mongoUrl
    ? createBackends({ kind: 'production', mongoUrl, kafkaBrokers: [], redisUrl: '', logger })
    : createBackends({ kind: 'memory', logger });
}

/** A recruiting-shaped row: a few strings, a number, a nested value, a comma to quote. */
function rowAt(n: number) {
  return {
    name: `Person ${n}`,
    title: n % 3 === 0 ? 'Engineer, Staff' : 'Recruiter',
    company: `Company ${n % 5_000}`,
    email: `person${n}@example.com`,
    score: n % 11,
    skills: ['typescript', 'sql'],
  };
}

async function main(): Promise<void> {
  // A fresh namespace: the module below opens this same database, and nothing else shares it.
  const backends = namespacedBackends(backendsFromEnv(), `bench${Date.now()}_`);
  const store = await backends.documentStore('rde_dataset');
  const context: DatasetContext = {
    datasets: await DatasetsRepository.open(store),
    rows: await RowsRepository.open(store),
    usage: await UsageRepository.open(store),
    clock: systemClock,
    writeBatch: WRITE_BATCH,
    // The bench measures export, not quotas.
    quota: { datasets: Infinity, rows: Infinity, bytes: Infinity },
  };
  console.log(`dataset-csv bench: rows=${ROWS} store=${process.env.RDE_MONGO_URL ? 'mongodb' : 'memory'}`);

  let began = performance.now();
  const rows = Array.from({ length: ROWS }, (_, n) => rowAt(n));
  const { record } = await new CreateDataset(context).create({
    workspaceId: CALLER.workspaceId,
    createdBy: CALLER.userId,
    id: '',
    name: 'bench',
    rows,
    bytes: rows.length * Buffer.byteLength(JSON.stringify(rowAt(0))),
    sessionId: '',
    source: '',
    runId: '',
  });
  console.log(`  created in ${seconds(began).toFixed(1)} s (${rate(ROWS, began)} rows/s)`);

  const served = await serveDatasets(backends, {}, 60 * 60_000);

  if (global.gc) global.gc();
  else console.log("  (run with --expose-gc: the creation's garbage will count as export memory)");
  const baseline = process.memoryUsage().rss;
  let peak = baseline;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
  began = performance.now();
  let bytes = 0;
  let lines = 0;
  let chunks = 0;
  for await (const { chunk } of served.client.exportCsv({ datasetId: record.id }, { caller: CALLER })) {
    chunks += 1;
    bytes += chunk.length;
    for (const byte of chunk) if (byte === 0x0a) lines += 1;
  }
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().rss);

  const exported = lines - 1; // the header line
  console.log(
    `  exported ${exported} rows, ${(bytes / MiB).toFixed(1)} MiB in ${chunks} chunks, ${seconds(began).toFixed(1)} s`,
  );
  console.log(`  throughput ${rate(exported, began)} rows/s, ${(bytes / MiB / seconds(began)).toFixed(1)} MiB/s`);
  console.log(
    `  resident memory: ${(baseline / MiB).toFixed(0)} MiB before the export, peak ${(peak / MiB).toFixed(0)} MiB during it (+${((peak - baseline) / MiB).toFixed(0)} MiB for a ${(bytes / MiB).toFixed(0)} MiB CSV)`,
  );
  if (exported !== ROWS) console.log(`  MISMATCH: expected ${ROWS} rows`);

  await served.stop();
  began = performance.now();
  await new DeleteDataset(context).delete(CALLER.workspaceId, record.id);
  console.log(`  deleted in ${seconds(began).toFixed(1)} s`);
  await backends.close();
}

const seconds = (since: number) => (performance.now() - since) / 1000;
const rate = (count: number, since: number) => Math.round(count / seconds(since)).toLocaleString('en-US');

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
