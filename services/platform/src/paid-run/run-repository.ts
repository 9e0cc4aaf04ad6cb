import { randomBytes } from 'node:crypto';
import type { Clock } from '../clock';
import { DuplicateKeyError } from '../ports/document-store';
import { outboxPush, type NewOutboxEvent } from '../outbox';
import type { Collection } from '../ports/document-store';
import { totalOf, type PaidRunCharge } from './charges';

/** A new paid run's id; it is also the id of the credit hold the run reserves. */
export function newRunId(): string {
  return `run_${randomBytes(12).toString('hex')}`;
}

const RUN_ID = /^run_[0-9a-f]{24}$/;

/** Whether `id` is a run id as newRunId makes them (callers may mint their own, e.g. to retry a call). */
export function isRunId(id: string): boolean {
  return RUN_ID.test(id);
}

export type PaidRunStatus = 'running' | 'succeeded' | 'failed';

/** What every paid run document holds (`_id` = run id = hold id); services add their own fields. */
export interface PaidRunDocument {
  _id: string;
  workspace_id: string;
  user_id: string;
  session_id: string;
  status: PaidRunStatus;
  reserved_millicredits: number;
  charges: PaidRunCharge[];
  credits_charged_millicredits: number;
  dataset_id?: string;
  row_count?: number;
  /** Why a failed run failed, for operators. */
  error?: string;
  created_at: Date;
  finished_at?: Date;
  [field: string]: unknown;
}

export interface PaidRunOutcome {
  readonly status: Exclude<PaidRunStatus, 'running'>;
  readonly charges: readonly PaidRunCharge[];
  readonly datasetId?: string;
  readonly rowCount?: number;
  readonly error?: string;
  /** Further fields of the service's run document to set with the outcome. */
  readonly fields?: Readonly<Record<string, unknown>>;
}

/**
 * Paid runs whose settlement rides in the run document's outbox. Two replicas never coordinate
 * beyond the guarded `status: running` update that lets exactly one finish write the settlement.
 */
export class PaidRunRepository<T extends PaidRunDocument> {
  constructor(
    protected readonly runs: Collection<T>,
    protected readonly clock: Clock,
  ) {}

  /** The collection whose documents carry the settlement outbox, for the relay. */
  get collection(): Collection<T> {
    return this.runs;
  }

  async start(run: Omit<T, 'status' | 'charges' | 'credits_charged_millicredits' | 'created_at'>): Promise<void> {
    await this.runs.insertOne({
      ...run,
      status: 'running',
      charges: [],
      credits_charged_millicredits: 0,
      created_at: new Date(this.clock.now()),
    } as unknown as T);
  }

  /**
   * Writes the run's outcome and its settlement in ONE guarded update: the settlement exists if and
   * only if the run finished, and a second finish of the same run writes nothing (returns false).
   */
  async finish(runId: string, outcome: PaidRunOutcome, settlement: NewOutboxEvent): Promise<boolean> {
    const result = await this.runs.updateOne(
      { _id: runId, status: 'running' },
      {
        $set: {
          ...outcome.fields,
          status: outcome.status,
          charges: [...outcome.charges],
          credits_charged_millicredits: totalOf(outcome.charges),
          finished_at: new Date(this.clock.now()),
          ...(outcome.datasetId !== undefined && { dataset_id: outcome.datasetId, row_count: outcome.rowCount }),
          ...(outcome.error !== undefined && { error: outcome.error }),
        },
        $push: outboxPush([settlement], this.clock),
      },
    );
    return result.matched === 1;
  }

  /** Starts the run; when its id is already taken (a retried call), returns the run found instead. */
  async startOrFind(run: Parameters<PaidRunRepository<T>['start']>[0]): Promise<T | undefined> {
    try {
      await this.start(run);
      return undefined;
    } catch (error) {
      if (!(error instanceof DuplicateKeyError)) throw error;
    }
    const id = run._id as string;
    const found = await this.get(id);
    if (!found) throw new Error(`run ${id} was neither started nor found`);
    return found;
  }

  /** Removes a run refused before anything was held, so a retry of the call starts it afresh. */
  async forget(runId: string): Promise<void> {
    await this.runs.deleteOne({ _id: runId, status: 'running' });
  }

  get(runId: string): Promise<T | null> {
    return this.runs.findOne({ _id: runId });
  }
}
