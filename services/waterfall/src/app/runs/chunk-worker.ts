import { leaseHeartbeat, type Clock, type Logger } from '@rde/platform';
import type { DatasetRunDocument, DatasetRunRepository } from '../../store/dataset-runs';
import type { RunChunkDocument, RunChunkRepository } from '../../store/run-chunks';
import type { ChunkWalker } from './chunk-walk';
import type { RunEnds } from './run-ends';
import { reasonOf } from './tool-step-calls';

/** A chunk that cannot start yet (no run document yet, or no budget) is tried again after this. */
const RETRY_MS = 500;
/** Attempts at a chunk before its rows are given up and the run fails. */
const MAX_ATTEMPTS = 4;

export interface ChunkWorkerDependencies {
  readonly chunks: RunChunkRepository;
  readonly runs: DatasetRunRepository;
  readonly walker: ChunkWalker;
  readonly ends: RunEnds;
  readonly clock: Clock;
  readonly logger: Logger;
  /** This replica's name on the chunks it walks, and how long a lease lasts unrenewed. */
  readonly owner: string;
  readonly leaseMs: number;
  /** Publishes a document's outbox now (the relay's poll is the safety net). */
  readonly publishChunk: (chunkId: string) => void;
}

/**
 * Works one chunk of a dataset run under its lease (decision 0032): takes the chunk's worst case
 * from the run's budget (rule 2), walks the admitted rows through each step, writes them into the
 * output dataset, ends the chunk with its settlement (one guarded update), and counts it on the
 * run once. The worker that counts the last chunk ends the run.
 */
export class ChunkWorker {
  constructor(private readonly deps: ChunkWorkerDependencies) {}

  async work(chunkId: string): Promise<void> {
    const { chunks, owner, leaseMs } = this.deps;
    const chunk = await chunks.claim(chunkId, owner, leaseMs);
    if (!chunk) return;
    const stopHeartbeat = leaseHeartbeat(
      leaseMs,
      () => chunks.renew(chunkId, owner, leaseMs),
      (error) => this.deps.logger.warn({ err: error, chunkId }, 'could not renew a chunk lease'),
    );
    try {
      await this.walkAndEnd(chunk);
    } catch (error) {
      await this.failed(chunk, error);
    } finally {
      stopHeartbeat();
    }
  }

  private async walkAndEnd(chunk: RunChunkDocument): Promise<void> {
    const { chunks, owner } = this.deps;
    const run = await this.deps.runs.get(chunk.run_id);
    if (run && run.status !== 'running') return;
    // No run yet: its chunks are written just before it. Budget short: chunks in flight give some back.
    const admitted = run ? (chunk.admitted ?? (await this.admit(run, chunk))) : undefined;
    if (!run || admitted === undefined) {
      await chunks.release(chunk._id, owner, new Date(this.deps.clock.now() + RETRY_MS));
      return;
    }
    const walked = await this.deps.walker.walk(run, chunk, admitted);
    const settlement =
      walked.charges.length > 0 ? this.deps.ends.settlement(run, `c${chunk.chunk}`, walked.charges, false) : undefined;
    const ended = await chunks.complete(chunk._id, owner, walked.counts, walked.charges, settlement);
    if (!ended) return;
    if (settlement) this.deps.publishChunk(chunk._id);
    await this.deps.ends.count(ended);
  }

  /**
   * A chunk that failed is tried again (by any replica) after a growing pause; after
   * MAX_ATTEMPTS its rows are given up (not reached, nothing billed for them), its budget given
   * back, and the run ends `failed` with `_meta.error` once its other chunks are counted.
   */
  private async failed(chunk: RunChunkDocument, error: unknown): Promise<void> {
    const attempts = (chunk.failures ?? 0) + 1;
    if (attempts < MAX_ATTEMPTS) {
      const at = new Date(this.deps.clock.now() + RETRY_MS * 2 ** attempts);
      await this.deps.chunks.release(chunk._id, this.deps.owner, at, true);
      throw error;
    }
    const run = await this.deps.runs.get(chunk.run_id);
    const size = chunk.end - chunk.start;
    const ended = await this.deps.chunks.complete(
      chunk._id,
      this.deps.owner,
      {
        hits: 0,
        misses: 0,
        open: 0,
        not_reached: size,
        step_hits: {},
        spent_millicredits: 0,
        unused_millicredits: (chunk.admitted ?? 0) * (run?.worst_per_row_millicredits ?? 0),
      },
      [],
      undefined,
    );
    if (!ended) return;
    this.deps.logger.error({ err: error, chunkId: chunk._id, attempts }, 'run chunk given up');
    await this.deps.runs.fail(
      chunk.run_id,
      `rows ${chunk.start}-${chunk.end - 1} could not be enriched: ${reasonOf(error)}`,
    );
    await this.deps.ends.count(ended);
  }

  /**
   * Rule 2 per chunk: the chunk takes its rows' worst case from the run's budget. When the budget
   * is short and other chunks are in flight, it waits for what they give back (undefined); when
   * none is, it takes the rows the rest covers and leaves the others not reached. A cancelled run
   * admits nothing.
   */
  private async admit(run: DatasetRunDocument, chunk: RunChunkDocument): Promise<number | undefined> {
    const size = chunk.end - chunk.start;
    const worst = run.worst_per_row_millicredits;
    let rows: number | undefined;
    if (run.cancel_requested) rows = (await this.deps.runs.take(run._id, 0)) ? 0 : undefined;
    else if (await this.deps.runs.take(run._id, size * worst)) rows = size;
    else {
      const now = await this.deps.runs.get(run._id);
      if (!now || now.in_flight > 0) return undefined;
      const covered = worst > 0 ? Math.min(size, Math.floor(now.budget_left / worst)) : size;
      rows = (await this.deps.runs.takeExactly(run._id, now.budget_left, covered * worst)) ? covered : undefined;
    }
    if (rows === undefined) return undefined;
    // Lost only if this worker lost its lease in between: the budget taken is then simply not used.
    return (await this.deps.chunks.admit(chunk._id, this.deps.owner, rows)) ? rows : undefined;
  }
}
