import { errors, type Account, type Caller } from '@rde/platform';
import type { WaterfallClients } from '../../clients';
import type { EnrichJobRepository } from '../../store/enrich-jobs';
import type { EnrichRunDocument, EnrichRunRepository } from '../../store/enrich-runs';
import { datasetRowsOf } from './dataset-rows';
import type { EnrichMeta, EnrichResult, PendingJobView } from './enrich-result';
import type { LiveRun } from './enrich-walks';

export interface EnrichAnswerDependencies {
  readonly runs: EnrichRunRepository;
  readonly jobs: EnrichJobRepository;
  readonly clients: WaterfallClients;
}

/** What an enrichment call answers: its rows or its running handle, or a replay of the first run. */
export class EnrichAnswers {
  constructor(private readonly deps: EnrichAnswerDependencies) {}

  /** Rule 7: the first call's dataset and run, charged 0, no vendor called. */
  async replay(firstRunId: string, caller: Caller): Promise<EnrichResult> {
    const first = await this.deps.runs.find(caller.workspaceId, firstRunId);
    if (!first) throw errors.notFound('the replayed run is gone');
    const { result, meta } = await this.joined(first, caller);
    return { result: { results: result.results }, meta: { ...meta, charged: 0, creditsCharged: 0, replayed: true } };
  }

  /** A repeat of the same call (its caller's run id): the run as it stands, with what it charged. */
  async joined(run: EnrichRunDocument, caller: Caller): Promise<EnrichResult> {
    const rows = run.status === 'running' ? [] : await datasetRowsOf(this.deps.clients, run, caller);
    const single = rows.length === 1 ? rows[0]! : undefined;
    const charged = run.charged_millicredits;
    return {
      result: { results: rows, ...(single && { steps: single.steps, hit: single.hit }) },
      meta: { ...(await this.runMeta(run)), charged, creditsCharged: charged },
    };
  }

  private async runMeta(run: EnrichRunDocument): Promise<EnrichMeta> {
    const open = await this.deps.jobs.openOfRun(run._id);
    return {
      runId: run._id,
      datasetId: run.dataset_id,
      rowCount: run.total,
      status: run.status,
      progress: { done: run.done, total: run.total },
      settled: false,
      ...(run.status === 'running' && { pollAfterS: 2 }),
      pendingJobs: open.map((job) => pendingJobView(job.provider, job.job_id)),
      ...(run.warnings && { warnings: run.warnings }),
    };
  }

  /** The answer: the rows when the run ended, else the running handle; money provisional until billing applies it. */
  async view(
    runId: string,
    datasetId: string,
    caller: Caller,
    live: LiveRun,
    { balance, reserved }: Account,
    held: number,
  ): Promise<EnrichResult> {
    const run = await this.deps.runs.find(caller.workspaceId, runId);
    const ended = run !== null && run.status !== 'running';
    const meta: EnrichMeta = {
      ...(run ? await this.runMeta(run) : { runId, datasetId }),
      charged: live.charged,
      creditsCharged: live.charged,
      balance: balance - (reserved - held) - live.charged,
      reserved,
      settled: false,
    };
    if (!ended) return { result: { results: [] }, meta };
    const single = live.rows.length === 1 ? live.rows[0]! : undefined;
    return {
      result: { results: live.rows, ...(single && { steps: single.steps, hit: single.hit }) },
      meta,
    };
  }
}

function pendingJobView(provider: string, jobId: string): PendingJobView {
  return { provider, job_id: jobId, fetch: `/enrich/jobs/${provider}/${jobId}` };
}
