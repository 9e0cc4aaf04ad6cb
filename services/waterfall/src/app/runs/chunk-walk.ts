import type { Caller, Clock } from '@rde/platform';
import { callerOf } from '../../domain/callers';
import { CHAINS, type Capability } from '../../domain/enrich/chains';
import { subjectOf, type Row, type Subject } from '../../domain/enrich/subject';
import { chargedOf, enrichedRow, type RowWalk, type StepRecord } from '../../domain/enrich/walk';
import { runStepName } from '../../domain/runs/tool-steps';
import type { CatalogClient, DatasetClient } from '../../clients';
import type { DatasetRunDocument } from '../../store/dataset-runs';
import type { ChunkCounts, RunChunkDocument } from '../../store/run-chunks';
import type { RunCharge } from '../../store/runs';
import type { RowWalker } from '../enrich';
import { callToolStep } from './tool-step-calls';

/** Rows written to the dataset per UpdateRows call. */
const WRITE_BATCH = 200;

export interface ChunkWalkerDependencies {
  readonly walker: RowWalker;
  readonly dataset: DatasetClient;
  /** Where a `tool.method` step's calls go: catalog's paid CallTool, one per row. */
  readonly catalog: CatalogClient;
  readonly clock: Clock;
}

/** What walking a chunk's admitted rows produced. */
interface ChunkWalk {
  readonly counts: ChunkCounts;
  readonly charges: RunCharge[];
}

/** Walks a chunk's admitted rows through a dataset run's steps and writes them into its output dataset. */
export class ChunkWalker {
  constructor(private readonly deps: ChunkWalkerDependencies) {}

  /** Walks the admitted rows through every step in order; each step reads the row the previous one left. */
  async walk(run: DatasetRunDocument, chunk: RunChunkDocument, admitted: number): Promise<ChunkWalk> {
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
        const called = await callToolStep(this.deps.catalog, run, caller, toolStep, current);
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

  private async write(run: DatasetRunDocument, caller: Caller, rows: Row[]): Promise<void> {
    const written = rows.flatMap((row, index) => [{ index, rowJson: Buffer.from(JSON.stringify(row)) }]);
    for (let at = 0; at < written.length; at += WRITE_BATCH) {
      await this.deps.dataset.updateRows(
        { datasetId: run.dataset_id, rows: written.slice(at, at + WRITE_BATCH), enrichStatus: 'running' },
        { caller },
      );
    }
  }
}
