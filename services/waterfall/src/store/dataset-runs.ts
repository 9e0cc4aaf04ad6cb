import { outboxPush, type Clock, type Collection, type NewOutboxEvent } from '@rde/platform';
import type { ToolStep } from '../domain/runs/tool-steps';
import type { EnrichRunDocument, EnrichRunRepository, NewEnrichRun } from './enrich-runs';

/**
 * A dataset enrichment run (spec "Dataset enrichment runs"): an `enrich_runs` document of kind
 * `dataset`, so a provider job of the run releases its hold like any enrichment's. Its rows live in
 * the output dataset, its work in its chunks (run-chunks.ts).
 */
export interface DatasetRunFields {
  kind: 'dataset';
  /** Step names in order: capabilities and `tool.method`s. */
  steps: string[];
  /** The run's `tool.method` steps with their column mappings (decision 0031). */
  tool_steps?: ToolStep[];
  /** The `ds_` id the rows came from; empty for input_rows. */
  input_dataset_id: string;
  in_place: boolean;
  output_name: string;
  /** Rows of the dataset; the slice `[range_start, range_end)` is walked. */
  row_total: number;
  range_start: number;
  range_end: number;
  worst_per_row_millicredits: number;
  /** Rows the balance covered at the worst case when the run started (rule 2). */
  rows_covered: number;
  chunk_count: number;
  replay_key: string;
  /** What the hold can still admit, in millicredits; chunks take their worst case and give back the rest. */
  budget_left: number;
  /** When the run's hold is next renewed (decision 0031, amended): a third of its lifetime after the last. */
  hold_renew_after?: Date;
}

/** Written as the run progresses. */
interface DatasetRunProgress {
  /** Chunks whose rows were counted: the guard that counts each chunk once. */
  counted_chunks: number[];
  /** Chunks admitted and not counted yet. */
  in_flight: number;
  cancel_requested?: boolean;
}

export type DatasetRunDocument = EnrichRunDocument & DatasetRunFields & DatasetRunProgress;

/** A dataset run is created as an enrichment run is, plus its own fields. */
export type NewDatasetRun = DatasetRunFields & NewEnrichRun;

/** The guarded single-document writes of a dataset run: admission, counting, cancel and end. */
export class DatasetRunRepository {
  private readonly runs: Collection<EnrichRunDocument>;

  constructor(
    private readonly enrichRuns: EnrichRunRepository,
    private readonly clock: Clock,
  ) {
    this.runs = enrichRuns.collection;
  }

  /** The run and its chunks' messages (the outbox) in one insert: a run exists iff its chunks are announced. */
  async start(run: NewDatasetRun, chunkEvents: NewOutboxEvent[]): Promise<void> {
    await this.runs.insertOne({
      ...run,
      done: 0,
      status: 'running',
      charges: [],
      charged_millicredits: 0,
      open_jobs: [],
      counted_chunks: [],
      in_flight: 0,
      created_at: new Date(this.clock.now()),
      ...(chunkEvents.length > 0 && { _outbox: outboxPush(chunkEvents, this.clock)._outbox.$each }),
    });
  }

  async find(workspaceId: string, runId: string): Promise<DatasetRunDocument | null> {
    return (await this.runs.findOne({
      _id: runId,
      workspace_id: workspaceId,
      kind: 'dataset',
    })) as DatasetRunDocument | null;
  }

  async get(runId: string): Promise<DatasetRunDocument | null> {
    return (await this.runs.findOne({ _id: runId, kind: 'dataset' })) as DatasetRunDocument | null;
  }

  /** Running dataset runs of a workspace (the concurrent-run limit). */
  running(workspaceId: string): Promise<number> {
    return this.runs.countDocuments({ workspace_id: workspaceId, kind: 'dataset', status: 'running' });
  }

  /** Running runs whose chunks are all counted but that have not ended (their finisher died). */
  async unfinished(limit: number): Promise<DatasetRunDocument[]> {
    const running = (await this.runs.find({ kind: 'dataset', status: 'running' }, { limit })) as DatasetRunDocument[];
    return running.filter((run) => run.counted_chunks.length >= run.chunk_count);
  }

  /** Running runs whose hold is due for renewal. */
  async holdsDue(now: Date, limit: number): Promise<DatasetRunDocument[]> {
    return (await this.runs.find(
      { kind: 'dataset', status: 'running', hold_renew_after: { $lte: now } },
      { limit },
    )) as DatasetRunDocument[];
  }

  /** Sets when the run's hold is next renewed (any replica may renew it; renewing twice is harmless). */
  async holdRenewed(runId: string, next: Date): Promise<void> {
    await this.runs.updateOne({ _id: runId, status: 'running' }, { $set: { hold_renew_after: next } });
  }

  /**
   * After a lapsed hold was taken again for less than the run still held: the run's hold and its
   * budget shrink by `shortfall` (the budget not below 0), if neither moved since `seen` was read.
   */
  async shrinkHold(seen: DatasetRunDocument, shortfall: number): Promise<boolean> {
    const result = await this.runs.updateOne(
      {
        _id: seen._id,
        status: 'running',
        budget_left: seen.budget_left,
        reserved_millicredits: seen.reserved_millicredits,
      },
      {
        $inc: {
          budget_left: -Math.min(shortfall, seen.budget_left),
          reserved_millicredits: -shortfall,
        },
      },
    );
    return result.matched === 1;
  }

  /** Takes `amount` from the budget for one chunk when at least that much is left. */
  async take(runId: string, amount: number): Promise<boolean> {
    const result = await this.runs.updateOne(
      { _id: runId, status: 'running', budget_left: { $gte: amount } },
      { $inc: { budget_left: -amount, in_flight: 1 } },
    );
    return result.matched === 1;
  }

  /** Takes exactly `amount` when the budget is still `seen` (nobody took or gave back in between). */
  async takeExactly(runId: string, seen: number, amount: number): Promise<boolean> {
    const result = await this.runs.updateOne(
      { _id: runId, status: 'running', budget_left: seen },
      { $inc: { budget_left: -amount, in_flight: 1 } },
    );
    return result.matched === 1;
  }

  /** Counts an ended chunk once: its rows, what it spent, and the budget it did not use. */
  async countChunk(
    runId: string,
    chunk: number,
    counts: { rows: number; spent: number; unused: number; admitted: boolean },
  ): Promise<DatasetRunDocument | null> {
    return (await this.runs.findOneAndUpdate(
      { _id: runId, counted_chunks: { $ne: chunk } },
      {
        $inc: {
          done: counts.rows,
          charged_millicredits: counts.spent,
          budget_left: counts.unused,
          // Only an admitted chunk was in flight (a chunk given up before admission was not).
          in_flight: counts.admitted ? -1 : 0,
        },
        $push: { counted_chunks: chunk },
      },
    )) as DatasetRunDocument | null;
  }

  /** Records the run's first failure; the run ends `failed` once every chunk is counted. */
  async fail(runId: string, error: string): Promise<void> {
    await this.runs.updateOne({ _id: runId, status: 'running', error: { $exists: false } }, { $set: { error } });
  }

  async cancel(workspaceId: string, runId: string): Promise<void> {
    await this.runs.updateOne(
      { _id: runId, workspace_id: workspaceId, kind: 'dataset', status: 'running' },
      { $set: { cancel_requested: true } },
    );
  }

  /** Ends the run with its final settlement in one guarded update (as any enrichment run); false when it already ended. */
  finish(...args: Parameters<EnrichRunRepository['finish']>): Promise<boolean> {
    return this.enrichRuns.finish(...args);
  }
}
