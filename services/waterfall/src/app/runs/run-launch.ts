import type { Caller, Clock, NewOutboxEvent } from '@rde/platform';
import { topics, waterfallEvents } from '@rde/proto';
import { storedCallerOf } from '../../domain/callers';
import { chunkIdOf, chunksOf, type Slice } from '../../domain/runs/plan';
import type { RunRequest } from '../../domain/runs/request';
import { isToolStep, runStepName } from '../../domain/runs/tool-steps';
import type { DatasetRunRepository } from '../../store/dataset-runs';
import type { RunChunkDocument, RunChunkRepository } from '../../store/run-chunks';

export interface RunLaunchDependencies {
  readonly runs: DatasetRunRepository;
  readonly chunks: RunChunkRepository;
  readonly clock: Clock;
  /** The hold's lifetime: the run's first renewal is due at a third of it. */
  readonly holdTtlMs: number;
  readonly chunkRows: number;
  /** Publishes a run's outbox (its chunks' messages) now. */
  readonly publishRun: (runId: string) => void;
}

/** A run about to start: what it was asked, what its input holds and what its hold covers. */
export interface LaunchedRun {
  readonly runId: string;
  readonly datasetId: string;
  readonly request: RunRequest;
  readonly rowCount: number;
  readonly slice: Slice;
  readonly worstPerRow: number;
  readonly covered: number;
  readonly replayKey: string;
  readonly caller: Caller;
}

/** The run and its chunks: chunks first, so a chunk message never names a chunk not yet written. */
export async function launchRun(deps: RunLaunchDependencies, run: LaunchedRun): Promise<void> {
  const { runId, caller } = run;
  const chunks = chunksOf(run.slice, deps.chunkRows);
  const lapsed = new Date(0);
  await deps.chunks.insert(
    chunks.map((chunk, index): RunChunkDocument => ({
      _id: chunkIdOf(runId, index),
      run_id: runId,
      workspace_id: caller.workspaceId,
      chunk: index,
      start: chunk.start,
      end: chunk.end,
      status: 'pending',
      lease_owner: '',
      lease_until: lapsed,
    })),
  );
  const events: NewOutboxEvent[] = chunks.map((_, index) => ({
    id: chunkIdOf(runId, index),
    topic: topics.ENRICH_RUN_CHUNKS,
    key: chunkIdOf(runId, index),
    value: waterfallEvents.EnrichRunChunk.encode({ runId, chunk: index, workspaceId: caller.workspaceId }).finish(),
  }));
  await deps.runs.start(
    {
      _id: runId,
      kind: 'dataset',
      ...storedCallerOf(caller),
      capability: run.request.steps.map(runStepName).join('+'),
      steps: run.request.steps.map(runStepName),
      tool_steps: run.request.steps.filter(isToolStep),
      dataset_id: run.datasetId,
      input_dataset_id: run.request.input ?? '',
      in_place: run.request.inPlace,
      output_name: run.request.outputName ?? '',
      row_total: run.rowCount,
      range_start: run.slice.start,
      range_end: run.slice.end,
      total: run.slice.end - run.slice.start,
      worst_per_row_millicredits: run.worstPerRow,
      rows_covered: run.covered,
      reserved_millicredits: run.covered * run.worstPerRow,
      budget_left: run.covered * run.worstPerRow,
      hold_renew_after: new Date(deps.clock.now() + deps.holdTtlMs / 3),
      chunk_count: chunks.length,
      rows: [],
      lease_owner: '',
      lease_until: lapsed,
      replay_key: run.replayKey,
    },
    events,
  );
  deps.publishRun(runId);
}
