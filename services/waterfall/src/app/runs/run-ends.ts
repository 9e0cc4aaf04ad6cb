import { settlementEvent, type Clock, type Logger } from '@rde/platform';
import { callerOf, settlementPayerOf } from '../../domain/callers';
import { chunkIdOf } from '../../domain/runs/plan';
import type { DatasetClient } from '../../clients';
import type { EnrichJobRepository } from '../../store/enrich-jobs';
import type { DatasetRunDocument, DatasetRunRepository } from '../../store/dataset-runs';
import type { RunChunkDocument, RunChunkRepository } from '../../store/run-chunks';
import type { RunCharge } from '../../store/runs';

export interface RunEndsDependencies {
  readonly chunks: RunChunkRepository;
  readonly runs: DatasetRunRepository;
  readonly jobs: EnrichJobRepository;
  readonly dataset: DatasetClient;
  readonly clock: Clock;
  readonly logger: Logger;
  /**
   * Publishes a run's end after its parts: these chunks' and the run's provider jobs' settlements
   * first, the run's own once they have left; rejects when the bus does.
   */
  readonly publishRunAfterParts: (runId: string, chunkIds: string[]) => Promise<unknown>;
  /** Releases a run's hold when none of its provider jobs is open any more. */
  readonly releaseRunIfDone: (run: DatasetRunDocument) => Promise<void>;
}

/** How a dataset run's chunks are counted and the run ended (decision 0032), and its settlements. */
export class RunEnds {
  constructor(private readonly deps: RunEndsDependencies) {}

  /** Counts an ended chunk on its run (once, whoever gets here first); the last one ends the run. */
  async count(chunk: RunChunkDocument): Promise<void> {
    const run = await this.deps.runs.countChunk(chunk.run_id, chunk.chunk, {
      rows: chunk.end - chunk.start,
      spent: chunk.spent_millicredits ?? 0,
      unused: chunk.unused_millicredits ?? 0,
      admitted: chunk.admitted !== undefined,
    });
    await this.deps.chunks.markCounted(chunk._id);
    const counted = run ?? (await this.deps.runs.get(chunk.run_id));
    if (counted && counted.counted_chunks.length >= counted.chunk_count) await this.finish(counted);
  }

  /**
   * Ends the run with its final settlement (releasing the hold unless a provider job of the run is
   * still open; that job's settlement releases it then) and marks the dataset.
   */
  async finish(run: DatasetRunDocument): Promise<void> {
    const openJobs = (await this.deps.jobs.openOfRun(run._id)).map((job) => ({
      provider: job.provider,
      job_id: job.job_id,
    }));
    const status = run.error !== undefined ? 'failed' : run.cancel_requested ? 'cancelled' : 'completed';
    const event = this.settlement(run, 'final', [], openJobs.length === 0);
    if (!(await this.deps.runs.finish(run._id, { status, openJobs }, event))) return;
    await this.publishEnd(run);
    if (openJobs.length > 0) await this.deps.releaseRunIfDone(run);
    await this.deps.dataset
      .updateRows(
        { datasetId: run.dataset_id, rows: [], enrichStatus: openJobs.length > 0 ? 'pending_jobs' : status },
        { caller: callerOf(run) },
      )
      // The run's end is recorded; a dataset deleted under the run just has no status to show.
      .catch((error: unknown) => this.deps.logger.warn({ err: error, runId: run._id }, 'could not mark the dataset'));
  }

  /**
   * The parts' settlements (chunks', and provider jobs' settled while the bus was down) reach billing
   * before the run's final one, which releases the hold: were the final one first, `settled` would
   * read true (and the hold's rest be free) while their charges are still on their way. When the
   * bus refuses, all wait for the outbox relay, which publishes chunks and jobs before runs.
   */
  private async publishEnd(run: DatasetRunDocument): Promise<void> {
    const chunkIds = Array.from({ length: run.chunk_count }, (_, index) => chunkIdOf(run._id, index));
    await this.deps.publishRunAfterParts(run._id, chunkIds).catch((error: unknown) => {
      this.deps.logger.warn({ err: error, runId: run._id }, 'run end left for the outbox relay, after its parts');
    });
  }

  /** A settlement of the run's hold: a chunk's charges (`c<n>`), or the run's end (`final`). */
  settlement(run: DatasetRunDocument, part: string, charges: RunCharge[], final: boolean) {
    return settlementEvent({
      settlementId: `${run._id}:settlement:${part}`,
      description: `enrich run ${run.steps.join('+')}`,
      holdId: run._id,
      runId: run._id,
      ...settlementPayerOf(run),
      charges,
      final,
      createdAtMs: this.deps.clock.now(),
    });
  }
}
