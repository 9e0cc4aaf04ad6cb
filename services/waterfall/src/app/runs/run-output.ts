import type { Caller, Logger } from '@rde/platform';
import type { RunRequest } from '../../domain/runs/request';
import type { DatasetClient } from '../../clients';

/**
 * How long the copy of an input dataset into a new one may take: a 50,000-row run started in
 * 14 s, copy included, on the test MongoDB-wire server (test/bench/runs-large.bench.ts), so the
 * default RPC deadline (10 s) is too short for the largest datasets.
 */
const COPY_DEADLINE_MS = 60_000;

/**
 * The new dataset a run writes: a copy of the input dataset made inside the dataset service (no
 * message carries its rows, whatever their size), or the input_rows as sent (they came in one
 * message, so they fit in one).
 */
export async function createRunOutput(
  dataset: DatasetClient,
  request: RunRequest,
  output: { datasetId: string; runId: string; names: readonly string[] },
  caller: Caller,
): Promise<void> {
  const { datasetId, runId, names } = output;
  const copyOf = request.inputRows ? '' : request.input!;
  await dataset.createDataset(
    {
      datasetId,
      name: request.outputName ?? `enrich run ${names.join('+')} ${runId}`,
      rowsJson: copyOf ? Buffer.alloc(0) : Buffer.from(JSON.stringify(request.inputRows)),
      source: `enrich:run:${names.join('+')}`,
      runId,
      sessionId: caller.sessionId,
      copyOfDatasetId: copyOf,
    },
    { caller, deadlineMs: COPY_DEADLINE_MS },
  );
}

/** Deletes the output of a run refused its hold; one left behind is only an unused dataset. */
export async function dropRunOutput(
  dataset: DatasetClient,
  logger: Logger,
  { datasetId, runId }: { datasetId: string; runId: string },
  caller: Caller,
): Promise<void> {
  await dataset
    .deleteDataset({ datasetId }, { caller })
    .catch((error: unknown) => logger.warn({ err: error, runId }, 'could not delete a refused run’s output'));
}
