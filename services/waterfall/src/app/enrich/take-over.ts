import type { Logger, RunLeases } from '@rde/platform';
import { CHAINS, type Capability } from '../../domain/enrich/chains';
import { subjectOf } from '../../domain/enrich/subject';
import type { WaterfallClients } from '../../clients';
import type { EnrichJobRepository } from '../../store/enrich-jobs';
import type { EnrichRunDocument, EnrichRunRepository } from '../../store/enrich-runs';
import { datasetRowsOf, finishedRow } from './dataset-rows';
import type { EnrichWalks } from './enrich-walks';
import { callerOf } from '../../domain/callers';

/** Dataset runs are not walked by one process: their chunks have leases of their own. */
const CALL_RUNS = { kind: { $ne: 'dataset' } };

export interface EnrichTakeOverDependencies {
  readonly runs: EnrichRunRepository;
  readonly jobs: EnrichJobRepository;
  readonly clients: WaterfallClients;
  readonly leases: RunLeases<EnrichRunDocument>;
  readonly walks: EnrichWalks;
  readonly logger: Logger;
  /** This replica's name on the runs it takes over. */
  readonly owner: string;
}

/** Take-over of enrichment calls whose process died mid-walk (the paid-run kit's leases). */
export class EnrichTakeOver {
  constructor(private readonly deps: EnrichTakeOverDependencies) {}

  /**
   * Takes over the runs whose process died (their lease lapsed), one at a time: rows a settled job
   * of the run already answered get that answer, rows an open job still waits on are left to its
   * poller, and every other row the dataset does not show as finished is walked again (under the
   * same charge ids, so nothing is billed twice). Then the run ends as usual.
   */
  async recoverLapsed(): Promise<void> {
    for (let run = await this.deps.leases.claimLapsed(this.deps.owner, CALL_RUNS); run;) {
      await this.recover(run).catch((error: unknown) =>
        this.deps.logger.error({ err: error, runId: run!._id }, 'could not take over an enrichment run'),
      );
      run = await this.deps.leases.claimLapsed(this.deps.owner, CALL_RUNS);
    }
  }

  private async recover(run: EnrichRunDocument): Promise<void> {
    const caller = callerOf(run);
    const chain = CHAINS[run.capability as Capability];
    const shown = await datasetRowsOf(this.deps.clients, run, caller);
    const jobs = await this.deps.jobs.ofRun(run._id);
    const waiting = new Set(
      jobs.filter((job) => job.status === 'pending').flatMap((job) => job.rows.map((r) => r.index)),
    );
    const answered = jobs
      .filter((job) => job.status === 'settled' && !job.handed_off)
      .flatMap((job) => job.results)
      .filter(({ index }) => !finishedRow(shown[index]));
    if (answered.length > 0) {
      await this.deps.runs.rowsDone(run._id, answered.length, []);
      await this.deps.clients.dataset.updateRows(
        {
          datasetId: run.dataset_id,
          rows: answered.map(({ index, row }) => ({ index, rowJson: Buffer.from(JSON.stringify(row)) })),
          enrichStatus: '',
        },
        { caller },
      );
    }
    const done = new Set(answered.map(({ index }) => index));
    const only = new Set(
      run.rows.flatMap((_, index) =>
        finishedRow(shown[index]) || waiting.has(index) || done.has(index) ? [] : [index],
      ),
    );
    this.deps.logger.warn({ runId: run._id, rows: only.size }, 'taking over an enrichment run whose process stopped');
    const live = this.deps.walks.start({
      runId: run._id,
      datasetId: run.dataset_id,
      caller,
      chain,
      rows: run.rows,
      subjects: run.rows.map(subjectOf),
      only,
    });
    await live.finished;
  }
}
