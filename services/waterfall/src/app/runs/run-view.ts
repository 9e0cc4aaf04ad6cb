import { RdeError } from '@rde/platform';
import type { DatasetClient } from '../../clients';
import type { Row } from '../../domain/enrich/subject';
import type { DatasetRunDocument } from '../../store/dataset-runs';
import type { EnrichRunDocument } from '../../store/enrich-runs';
import type { RunChunkDocument } from '../../store/run-chunks';
import { callerOf } from '../../domain/callers';
import { partialBudgetWarning } from '../../domain/runs/plan';

/** Rows of an ended run's sample (spec: a 5-row sample). */
const SAMPLE_ROWS = 5;
/** How often a client polls a running run. */
export const POLL_AFTER_S = 2;

export type RunView = Record<string, unknown> & { _meta: Record<string, unknown> };

/**
 * The Enrich run record (spec "Enrich run", decision 0031): status, progress, and once ended the
 * charge, the summary, the columns and (on GET) a 5-row sample; a failed run carries `_meta.error`.
 * Never the rows themselves.
 */
export async function runView(
  run: DatasetRunDocument,
  chunks: readonly RunChunkDocument[],
  dataset: DatasetClient,
  options: { replayed?: boolean; sample?: boolean },
): Promise<RunView> {
  const running = run.status === 'running';
  const progress = { done: run.done, total: run.total };
  const ended = running ? {} : await endedFields(run, dataset, options.sample === true);
  const charged = options.replayed ? 0 : run.charged_millicredits / 1000;
  const warnings = run.rows_covered < run.total ? [partialBudgetWarning(run.rows_covered, run.total)] : [];
  return {
    run_id: run._id,
    status: run.status,
    dataset_id: run.dataset_id,
    ...(run.input_dataset_id && { input: run.input_dataset_id }),
    in_place: run.in_place,
    steps: run.steps,
    range: `${run.range_start}:${run.range_end}`,
    progress,
    summary: summaryOf(run, chunks),
    ...ended,
    _meta: {
      run_id: run._id,
      status: run.status,
      dataset_id: run.dataset_id,
      progress,
      row_count: run.row_total,
      would_charge_credits: (run.worst_per_row_millicredits * run.total) / 1000,
      ...(running ? { poll_after_s: POLL_AFTER_S, settled: false } : { credits_charged: charged, charged }),
      ...(options.replayed && { replayed: true }),
      ...(warnings.length > 0 && { warnings }),
      ...(run.error !== undefined && { error: run.error }),
    },
  };
}

/** Counts over the chunks counted so far: rows enriched, missed, left with an open job, not reached. */
function summaryOf(run: DatasetRunDocument, chunks: readonly RunChunkDocument[]) {
  const done = chunks.filter((chunk) => chunk.status === 'done');
  const sum = (field: 'hits' | 'misses' | 'open' | 'not_reached') =>
    done.reduce((total, chunk) => total + (chunk[field] ?? 0), 0);
  const byStep: Record<string, { hits: number }> = Object.fromEntries(run.steps.map((step) => [step, { hits: 0 }]));
  for (const chunk of done) {
    for (const [step, hits] of Object.entries(chunk.step_hits ?? {}))
      byStep[step] = { hits: (byStep[step]?.hits ?? 0) + hits };
  }
  return {
    rows: run.row_total,
    in_range: run.total,
    passed_through: run.row_total - run.total,
    enriched: sum('hits'),
    missed: sum('misses'),
    still_enriching: sum('open'),
    not_reached: sum('not_reached'),
    by_step: byStep,
  };
}

/**
 * The columns of the output (the dataset's, then those the steps added, read off the first rows of
 * the range), and the sample: those rows.
 */
async function endedFields(run: DatasetRunDocument, dataset: DatasetClient, withSample: boolean) {
  return endedOf(await outputOf(run, run.range_start, SAMPLE_ROWS, dataset), withSample);
}

/** A run's output dataset: its columns, and up to `limit` of its rows from `offset` on. */
export interface RunOutput {
  readonly columns: readonly string[];
  readonly rows: Row[];
}

/** Reads a run's output; undefined when the client deleted it (the run's record stays, without it). */
export async function outputOf(
  run: EnrichRunDocument,
  offset: number,
  limit: number,
  dataset: DatasetClient,
): Promise<RunOutput | undefined> {
  const caller = callerOf(run);
  const datasetId = run.dataset_id;
  const [record, page] = await Promise.all([
    dataset.getDataset({ datasetId }, { caller }),
    dataset.getRows({ datasetId, page: { offset, limit } }, { caller }),
  ]).catch((error: unknown) => {
    if (error instanceof RdeError && error.httpStatus === 404) return [undefined, undefined];
    throw error;
  });
  if (!record || !page) return undefined;
  return { columns: record.dataset?.columns ?? [], rows: JSON.parse(page.rowsJson.toString('utf8')) as Row[] };
}

/** An ended run's columns (the output's, then those its first rows carry) and its 5-row sample. */
export function endedOf(output: RunOutput | undefined, withSample: boolean) {
  if (!output) return { columns: [], ...(withSample && { sample: [] }) };
  const sample = output.rows.slice(0, SAMPLE_ROWS);
  const columns = [...new Set([...output.columns, ...sample.flatMap((row) => Object.keys(row))])];
  return { columns, ...(withSample && { sample }) };
}
