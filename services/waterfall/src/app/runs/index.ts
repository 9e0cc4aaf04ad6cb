import type { WaterfallStores } from '../../store';
import type { RowWalker } from '../enrich';
import { CallRuns } from './call-runs';
import { ChunkWalker } from './chunk-walk';
import { ChunkWorker } from './chunk-worker';
import { EnrichRuns, type EnrichRunsDependencies } from './enrich-runs';
import { RunEnds, type RunEndsDependencies } from './run-ends';
import { RunHolds } from './run-holds';

export type { ChunkWorker } from './chunk-worker';
export type { RunEnds } from './run-ends';
export type { RunHolds } from './run-holds';

/** What the runs feature is built from: its use cases' dependencies, and the chunk work's. */
export type RunsFeatureDependencies = Omit<EnrichRunsDependencies, 'runs' | 'chunks' | 'callRuns'> &
  Pick<RunEndsDependencies, 'releaseRunIfDone' | 'publishRunAfterParts'> & {
    readonly stores: WaterfallStores;
    readonly walker: RowWalker;
    /** This replica's name on the chunks it walks, and how long a chunk's lease lasts unrenewed. */
    readonly owner: string;
    readonly chunkLeaseMs: number;
    readonly publishChunk: (chunkId: string) => void;
  };

/** Dataset enrichment runs (spec "Dataset enrichment runs"): the use cases and what works their chunks. */
export function buildRuns(deps: RunsFeatureDependencies) {
  const { stores, clients, clock, logger } = deps;
  const runs = stores.datasetRuns;
  const ends = new RunEnds({ ...deps, chunks: stores.chunks, runs, jobs: stores.jobs, dataset: clients.dataset });
  const walker = new ChunkWalker({ walker: deps.walker, dataset: clients.dataset, catalog: clients.catalog, clock });
  const chunkWorker = new ChunkWorker({
    ...deps,
    chunks: stores.chunks,
    runs,
    walker,
    ends,
    leaseMs: deps.chunkLeaseMs,
  });
  const enrichRuns = new EnrichRuns({
    ...deps,
    runs,
    chunks: stores.chunks,
    callRuns: new CallRuns(stores.enrichRuns, stores.jobs, clients.dataset),
  });
  return { enrichRuns, chunkWorker, ends, runHolds: new RunHolds({ runs, holds: deps.holds, clock, logger }) };
}
