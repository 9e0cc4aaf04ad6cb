import type { DatasetClient } from '../../clients';
import { MAX_ROWS } from '../../domain/enrich/request';
import type { Row } from '../../domain/enrich/subject';
import type { EnrichJobRepository } from '../../store/enrich-jobs';
import type { EnrichRunDocument, EnrichRunRepository } from '../../store/enrich-runs';
import { endedOf, outputOf, POLL_AFTER_S, type RunView } from './run-view';

/**
 * The run of an enrichment call (spec States: a multi-row enrich call is polled with
 * GET /enrich/runs/{run_id}) in a dataset run's record: status, progress, and once ended what it
 * charged, its summary, columns and 5-row sample. A call holds at most 100 rows, so the record is
 * read off all of them.
 */
export class CallRuns {
  constructor(
    private readonly runs: EnrichRunRepository,
    private readonly jobs: EnrichJobRepository,
    private readonly dataset: DatasetClient,
  ) {}

  /** The workspace's call run `runId`, or undefined (another workspace's is as absent as none). */
  async view(workspaceId: string, runId: string): Promise<RunView | undefined> {
    const run = await this.runs.find(workspaceId, runId);
    if (!run) return undefined;
    const running = run.status === 'running';
    const output = await outputOf(run, 0, MAX_ROWS, this.dataset);
    const progress = { done: run.done, total: run.total };
    const charged = running ? 0 : (run.charged_millicredits + (await this.jobsCharged(run))) / 1000;
    return {
      run_id: run._id,
      status: run.status,
      dataset_id: run.dataset_id,
      in_place: false,
      steps: [run.capability],
      range: `0:${run.total}`,
      progress,
      summary: summaryOf(run, output?.rows ?? []),
      ...(!running && endedOf(output, true)),
      _meta: {
        run_id: run._id,
        status: run.status,
        dataset_id: run.dataset_id,
        progress,
        row_count: run.total,
        ...(running ? { poll_after_s: POLL_AFTER_S, settled: false } : { credits_charged: charged, charged }),
        ...(run.warnings && { warnings: run.warnings }),
        ...(run.error !== undefined && { error: run.error }),
      },
    };
  }

  /** Hits billed by the run's provider jobs (their own settlements, not the run's). */
  private async jobsCharged(run: EnrichRunDocument): Promise<number> {
    const jobs = await this.jobs.ofRun(run._id);
    return jobs.filter((job) => job.status === 'settled').reduce((sum, job) => sum + job.charged_millicredits, 0);
  }
}

/** The dataset run's summary counted over the call's rows as they landed (rows not walked yet: not reached). */
function summaryOf(run: EnrichRunDocument, rows: readonly Row[]) {
  const walked = rows.filter((row) => Array.isArray(row.steps) && row.steps.length > 0);
  const enriched = walked.filter((row) => row.hit === true).length;
  const stillEnriching = walked.filter((row) => row.hit !== true && row.reason === 'still_enriching').length;
  return {
    rows: run.total,
    in_range: run.total,
    passed_through: 0,
    enriched,
    missed: walked.length - enriched - stillEnriching,
    still_enriching: stillEnriching,
    not_reached: run.total - walked.length,
    by_step: { [run.capability]: { hits: enriched } },
  };
}
