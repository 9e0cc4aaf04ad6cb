import { CollectionRepository, indexedCollection, outboxPush } from '@rde/platform';
import type { Clock, DocumentStore, NewOutboxEvent } from '@rde/platform';
import type { RunCharge } from './runs';

export type EnrichRunStatus = 'running' | 'completed' | 'failed' | 'cancelled';

export interface OpenJobRef {
  readonly provider: string;
  readonly job_id: string;
}

/** One enrichment call over rows (collection `enrich_runs`, `_id` = run id = hold id). */
export interface EnrichRunDocument {
  _id: string;
  workspace_id: string;
  user_id: string;
  session_id: string;
  /** The workflow run whose step started this run (decision 0088): every charge's ledger row names it. */
  workflow_run_id?: string;
  capability: string;
  dataset_id: string;
  total: number;
  done: number;
  status: EnrichRunStatus;
  reserved_millicredits: number;
  /** Charges of the run's own hold (synchronous hits, validations), pushed as rows finish. */
  charges: RunCharge[];
  charged_millicredits: number;
  /** Jobs still open when the run's walk ended (rule 8). */
  open_jobs: OpenJobRef[];
  /** The rows as sent, so another replica can finish the run if its process dies. */
  rows: Record<string, unknown>[];
  /** The process walking the run renews this lease; once it lapses another replica takes the run over. */
  lease_owner: string;
  lease_until: Date;
  error?: string;
  /** Rule 9: rows from this index on were left out by a spending cap; they count as done from the start. */
  capped_from?: number;
  /** `_meta.warnings` of the run (rule 9's `spending_cap_reached`). */
  warnings?: Record<string, unknown>[];
  created_at: Date;
  finished_at?: Date;
  [field: string]: unknown;
}

export type NewEnrichRun = Pick<
  EnrichRunDocument,
  | '_id'
  | 'workspace_id'
  | 'user_id'
  | 'session_id'
  | 'capability'
  | 'dataset_id'
  | 'total'
  | 'reserved_millicredits'
  | 'rows'
  | 'lease_owner'
  | 'lease_until'
> &
  Partial<Pick<EnrichRunDocument, 'capped_from' | 'warnings' | 'workflow_run_id'>>;

export class EnrichRunRepository extends CollectionRepository<EnrichRunDocument> {
  static async open(store: DocumentStore, clock: Clock): Promise<EnrichRunRepository> {
    const collection = await indexedCollection<EnrichRunDocument>(store, 'enrich_runs', [
      { keys: { workspace_id: 1, created_at: -1 } },
    ]);
    return new EnrichRunRepository(collection, clock);
  }

  async start(run: NewEnrichRun): Promise<void> {
    await this.collection.insertOne({
      ...run,
      done: run.capped_from === undefined ? 0 : run.total - run.capped_from,
      status: 'running',
      charges: [],
      charged_millicredits: 0,
      open_jobs: [],
      created_at: new Date(this.clock.now()),
    });
  }

  /** Rows finished: counted, and their charges kept with the run until its settlement. */
  async rowsDone(runId: string, rows: number, charges: readonly RunCharge[]): Promise<void> {
    await this.collection.updateOne(
      { _id: runId, status: 'running' },
      {
        $inc: { done: rows, charged_millicredits: charges.reduce((sum, c) => sum + c.millicredits, 0) },
        ...(charges.length > 0 && { $push: { charges: { $each: [...charges] } } }),
      },
    );
  }

  /**
   * Ends the run and writes its settlement in ONE guarded update: the settlement exists if and only
   * if the run ended, and a second end writes nothing (false).
   */
  async finish(
    runId: string,
    outcome: { status: Exclude<EnrichRunStatus, 'running'>; openJobs: OpenJobRef[]; error?: string },
    settlement: NewOutboxEvent,
  ): Promise<boolean> {
    const result = await this.collection.updateOne(
      { _id: runId, status: 'running' },
      {
        $set: {
          status: outcome.status,
          open_jobs: outcome.openJobs,
          finished_at: new Date(this.clock.now()),
          ...(outcome.error !== undefined && { error: outcome.error }),
        },
        $push: outboxPush([settlement], this.clock),
      },
    );
    return result.matched === 1;
  }

  /**
   * Releases the hold of a run that ended with provider jobs open, once none is: one guarded
   * update with the final settlement, so only the first releaser writes it.
   */
  async releaseHold(runId: string, settlement: NewOutboxEvent): Promise<boolean> {
    const result = await this.collection.updateOne(
      { _id: runId, status: { $ne: 'running' }, hold_released: { $ne: true }, 'open_jobs.0': { $exists: true } },
      { $set: { hold_released: true }, $push: outboxPush([settlement], this.clock) },
    );
    return result.matched === 1;
  }

  /** A run of this workspace; another workspace's is as absent as an unknown one. */
  find(workspaceId: string, runId: string): Promise<EnrichRunDocument | null> {
    return this.collection.findOne({ _id: runId, workspace_id: workspaceId });
  }
}
