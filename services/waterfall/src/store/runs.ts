import { outboxPush, type Clock, type Collection, type DocumentStore, type NewOutboxEvent } from '@rde/platform';

export type RunStatus = 'running' | 'succeeded' | 'failed';

export interface RunCharge {
  readonly charge_id: string;
  readonly millicredits: number;
  readonly description: string;
}

/** One waterfall run (collection `runs`, `_id` = run id = hold id): a search or an enrichment. */
export interface RunDocument {
  _id: string;
  /** `people_search`, or an enrichment waterfall's name. */
  waterfall: string;
  workspace_id: string;
  user_id: string;
  session_id: string;
  status: RunStatus;
  reserved_millicredits: number;
  charges: RunCharge[];
  credits_charged_millicredits: number;
  dataset_id?: string;
  row_count?: number;
  /** The steps as the client saw them, for support and audits. */
  steps?: unknown[];
  error?: string;
  created_at: Date;
  finished_at?: Date;
  [field: string]: unknown;
}

export type NewRun = Pick<
  RunDocument,
  '_id' | 'waterfall' | 'workspace_id' | 'user_id' | 'session_id' | 'reserved_millicredits'
>;

export interface RunOutcome {
  readonly status: Exclude<RunStatus, 'running'>;
  readonly charges: readonly RunCharge[];
  readonly datasetId?: string;
  readonly rowCount?: number;
  readonly steps?: unknown[];
  readonly error?: string;
}

/**
 * Waterfall runs. Every write is one document: two replicas never coordinate beyond the guarded
 * `status: running` update that lets exactly one finish write the settlement.
 */
export class RunRepository {
  constructor(
    private readonly runs: Collection<RunDocument>,
    private readonly clock: Clock,
  ) {}

  static async open(store: DocumentStore, clock: Clock): Promise<RunRepository> {
    const runs = store.collection<RunDocument>('runs');
    await runs.createIndex({ keys: { workspace_id: 1, created_at: -1 } });
    return new RunRepository(runs, clock);
  }

  /** The collection whose documents carry the settlement outbox, for the relay. */
  get collection(): Collection<RunDocument> {
    return this.runs;
  }

  async start(run: NewRun): Promise<void> {
    await this.runs.insertOne({
      ...run,
      status: 'running',
      charges: [],
      credits_charged_millicredits: 0,
      created_at: new Date(this.clock.now()),
    });
  }

  /** Writes the outcome and its settlement in ONE guarded update; a second finish writes nothing (false). */
  async finish(runId: string, outcome: RunOutcome, settlement: NewOutboxEvent): Promise<boolean> {
    const result = await this.runs.updateOne(
      { _id: runId, status: 'running' },
      {
        $set: {
          status: outcome.status,
          charges: [...outcome.charges],
          credits_charged_millicredits: outcome.charges.reduce((sum, charge) => sum + charge.millicredits, 0),
          finished_at: new Date(this.clock.now()),
          ...(outcome.datasetId !== undefined && { dataset_id: outcome.datasetId, row_count: outcome.rowCount }),
          ...(outcome.steps !== undefined && { steps: outcome.steps }),
          ...(outcome.error !== undefined && { error: outcome.error }),
        },
        $push: outboxPush([settlement], this.clock),
      },
    );
    return result.matched === 1;
  }
}
