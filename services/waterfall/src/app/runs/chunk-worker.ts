import { RdeError, settlementEvent, type Caller, type Clock, type Logger } from '@rde/platform';
import { CHAINS, type Capability } from '../../domain/enrich/chains';
import { subjectOf, type Row, type Subject } from '../../domain/enrich/subject';
import { chargedOf, enrichedRow, type RowWalk, type StepRecord } from '../../domain/enrich/walk';
import { runStepName, toolArgsOf, toolCallRunIdOf, type ToolStep } from '../../domain/runs/tool-steps';
import type { CatalogClient, DatasetClient } from '../../clients';
import type { EnrichJobRepository } from '../../store/enrich-jobs';
import type { DatasetRunDocument, DatasetRunRepository } from '../../store/dataset-runs';
import type { ChunkCounts, RunChunkDocument, RunChunkRepository } from '../../store/run-chunks';
import type { RunCharge } from '../../store/runs';
import { callerOf } from '../enrich/provider-jobs';
import type { RowWalker } from '../enrich/walk-rows';

/** Rows written to the dataset per UpdateRows call. */
const WRITE_BATCH = 200;
/** A chunk that cannot start yet (no run document yet, or no budget) is tried again after this. */
const RETRY_MS = 500;
/** Attempts at a chunk before its rows are given up and the run fails. */
const MAX_ATTEMPTS = 4;

export interface ChunkWorkerDependencies {
  readonly chunks: RunChunkRepository;
  readonly runs: DatasetRunRepository;
  readonly jobs: EnrichJobRepository;
  readonly walker: RowWalker;
  readonly dataset: DatasetClient;
  /** Where a `tool.method` step's calls go: catalog's paid CallTool, one per row. */
  readonly catalog: CatalogClient;
  readonly clock: Clock;
  readonly logger: Logger;
  /** This replica's name on the chunks it walks, and how long a lease lasts unrenewed. */
  readonly owner: string;
  readonly leaseMs: number;
  /** Publishes a document's outbox now (the relay's poll is the safety net). */
  readonly publishChunk: (chunkId: string) => void;
  readonly publishRun: (runId: string) => void;
  /** Releases a run's hold when none of its provider jobs is open any more. */
  readonly releaseRunIfDone: (run: DatasetRunDocument) => Promise<void>;
}

/** What walking a chunk's admitted rows produced. */
interface ChunkWalk {
  readonly counts: ChunkCounts;
  readonly charges: RunCharge[];
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
    const heartbeat = setInterval(() => {
      void chunks
        .renew(chunkId, owner, leaseMs)
        .catch((error: unknown) => this.deps.logger.warn({ err: error, chunkId }, 'could not renew a chunk lease'));
    }, leaseMs / 3);
    heartbeat.unref();
    try {
      await this.walkAndEnd(chunk);
    } catch (error) {
      await this.failed(chunk, error);
    } finally {
      clearInterval(heartbeat);
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
    const walked = await this.walk(run, chunk, admitted);
    const settlement =
      walked.charges.length > 0 ? this.settlement(run, `c${chunk.chunk}`, walked.charges, false) : undefined;
    const ended = await chunks.complete(chunk._id, owner, walked.counts, walked.charges, settlement);
    if (!ended) return;
    if (settlement) this.deps.publishChunk(chunk._id);
    await this.count(ended);
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
    await this.count(ended);
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

  /** Walks the admitted rows through every step in order; each step reads the row the previous one left. */
  private async walk(run: DatasetRunDocument, chunk: RunChunkDocument, admitted: number): Promise<ChunkWalk> {
    const size = chunk.end - chunk.start;
    const counts = {
      hits: 0,
      misses: 0,
      open: 0,
      not_reached: size - admitted,
      step_hits: {} as Record<string, number>,
    };
    if (admitted === 0) return { counts: { ...counts, spent_millicredits: 0, unused_millicredits: 0 }, charges: [] };
    const caller = callerOf(run);
    const { rowsJson } = await this.deps.dataset.getRows(
      { datasetId: run.dataset_id, page: { offset: chunk.start, limit: admitted } },
      { caller },
    );
    // Sparse arrays indexed by the row's position in the dataset: charge ids, batch references and
    // provider jobs' writes all name rows by that position.
    let current: Row[] = new Array<Row>(chunk.start + admitted);
    (JSON.parse(rowsJson.toString('utf8')) as Row[]).forEach((row, i) => (current[chunk.start + i] = row));
    const indexes = new Set(current.flatMap((_, index) => [index]));
    const steps = new Map<number, StepRecord[]>();
    const hit = new Set<number>();
    const open = new Set<number>();
    const charges: RunCharge[] = [];
    let spent = 0;
    const asOf = new Date(this.deps.clock.now()).toISOString().slice(0, 7);
    const toolSteps = new Map((run.tool_steps ?? []).map((step) => [runStepName(step), step]));
    for (const name of run.steps) {
      const toolStep = toolSteps.get(name);
      if (toolStep) {
        const called = await this.callTool(run, caller, toolStep, current);
        spent += called.spent;
        for (const index of called.hits) hit.add(index);
        if (called.hits.size > 0) counts.step_hits[name] = called.hits.size;
        current = current.map((row, index) => ({ ...row, hit: hit.has(index) }));
        continue;
      }
      const capability = name as Capability;
      const chain = CHAINS[capability];
      const subjects: Subject[] = current.map(subjectOf);
      // slice keeps the holes (spreading would fill them with undefined).
      const next: Row[] = current.slice();
      await this.deps.walker.walk(
        { runId: run._id, caller, capability, datasetId: run.dataset_id, rows: current, subjects, asOf, only: indexes },
        (index, walk: RowWalk, owed) => {
          charges.push(...owed);
          spent +=
            chargedOf(walk) +
            owed.filter((c) => c.charge_id.includes(':verify:')).reduce((sum, c) => sum + c.millicredits, 0);
          const before = steps.get(index) ?? [];
          const row = enrichedRow(chain, current[index]!, subjects[index]!, walk);
          steps.set(index, [...before, ...(row.steps as StepRecord[])]);
          if (walk.found) {
            hit.add(index);
            counts.step_hits[capability] = (counts.step_hits[capability] ?? 0) + 1;
          }
          if (walk.open) open.add(index);
          next[index] = { ...row, hit: hit.has(index), steps: steps.get(index) };
        },
      );
      current = next;
    }
    await this.write(run, caller, current);
    counts.hits = hit.size;
    counts.open = [...open].filter((index) => !hit.has(index)).length;
    counts.misses = admitted - counts.hits - counts.open;
    const worstOfOpen = open.size * run.worst_per_row_millicredits;
    return {
      counts: {
        ...counts,
        spent_millicredits: spent,
        unused_millicredits: Math.max(0, admitted * run.worst_per_row_millicredits - spent - worstOfOpen),
      },
      charges: [...new Map(charges.map((charge) => [charge.charge_id, charge])).values()],
    };
  }

  /**
   * A tool step: one CallTool per row, in order, under a run id fixed by the run, the row and the
   * step (a redelivered chunk is answered from catalog's stored outcome, not charged again). The
   * call bills itself (its own hold and settlement); the run counts what it charged as spent. A
   * call refused for its input (4xx) leaves `{error}` in the row's column, a miss; any other
   * failure fails the chunk, which is tried again.
   */
  private async callTool(run: DatasetRunDocument, caller: Caller, step: ToolStep, rows: Row[]) {
    const name = runStepName(step);
    const hits = new Set<number>();
    let spent = 0;
    for (const [index, row] of rows.entries()) {
      if (!row) continue;
      const payload = toolArgsOf(step, row);
      try {
        const { resultJson, meta } = await this.deps.catalog.callTool(
          {
            tool: step.tool,
            method: step.method,
            payloadJson: Buffer.from(JSON.stringify(payload)),
            argsJson: Buffer.alloc(0),
            kwargsJson: Buffer.alloc(0),
            dryRun: false,
            runId: toolCallRunIdOf(run._id, index, name),
          },
          { caller },
        );
        const charged = Number(meta?.creditsCharged?.millicredits ?? 0);
        spent += charged;
        if (charged > 0) hits.add(index);
        rows[index] = { ...row, [name]: JSON.parse(resultJson.toString('utf8')) as unknown };
      } catch (error) {
        if (!(error instanceof RdeError) || error.httpStatus >= 500) throw error;
        rows[index] = { ...row, [name]: { error: reasonOf(error) } };
      }
    }
    return { hits, spent };
  }

  private async write(run: DatasetRunDocument, caller: Caller, rows: Row[]): Promise<void> {
    const written = rows.flatMap((row, index) => [{ index, rowJson: Buffer.from(JSON.stringify(row)) }]);
    for (let at = 0; at < written.length; at += WRITE_BATCH) {
      await this.deps.dataset.updateRows(
        { datasetId: run.dataset_id, rows: written.slice(at, at + WRITE_BATCH), enrichStatus: 'running' },
        { caller },
      );
    }
  }

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
    this.deps.publishRun(run._id);
    if (openJobs.length > 0) await this.deps.releaseRunIfDone(run);
    await this.deps.dataset
      .updateRows(
        { datasetId: run.dataset_id, rows: [], enrichStatus: openJobs.length > 0 ? 'pending_jobs' : status },
        { caller: callerOf(run) },
      )
      // The run's end is recorded; a dataset deleted under the run just has no status to show.
      .catch((error: unknown) => this.deps.logger.warn({ err: error, runId: run._id }, 'could not mark the dataset'));
  }

  /** A settlement of the run's hold: a chunk's charges (`c<n>`), or the run's end (`final`). */
  private settlement(run: DatasetRunDocument, part: string, charges: RunCharge[], final: boolean) {
    return settlementEvent({
      settlementId: `${run._id}:settlement:${part}`,
      description: `enrich run ${run.steps.join('+')}`,
      holdId: run._id,
      runId: run._id,
      workspaceId: run.workspace_id,
      userId: run.user_id,
      sessionId: run.session_id,
      charges,
      final,
      createdAtMs: this.deps.clock.now(),
    });
  }
}

/** What a client may read of a failure: a refusal's own detail, never an internal error's text. */
function reasonOf(error: unknown): string {
  if (error instanceof RdeError && error.httpStatus < 500) {
    const detail = (error.body as { detail?: unknown }).detail;
    if (typeof detail === 'string') return detail;
  }
  return 'an internal error (logged)';
}
