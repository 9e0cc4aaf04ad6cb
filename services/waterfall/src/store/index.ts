import type { Clock, DocumentStore } from '@rde/platform';
import { DatasetRunRepository } from './dataset-runs';
import { EnrichJobRepository } from './enrich-jobs';
import { EnrichRunRepository } from './enrich-runs';
import { RunChunkRepository } from './run-chunks';
import { RunRepository } from './runs';

export type WaterfallStores = Awaited<ReturnType<typeof openWaterfallStores>>;

/** The waterfall's repositories, opened (indexes made) once per module. */
export async function openWaterfallStores(store: DocumentStore, clock: Clock) {
  const enrichRuns = await EnrichRunRepository.open(store, clock);
  return {
    runs: await RunRepository.open(store, clock),
    enrichRuns,
    /** Dataset runs share the enrichment runs' collection (one run record, two kinds). */
    datasetRuns: new DatasetRunRepository(enrichRuns, clock),
    jobs: await EnrichJobRepository.open(store, clock),
    chunks: await RunChunkRepository.open(store, clock),
  };
}
