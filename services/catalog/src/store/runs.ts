import { outboxPush, type Clock, type Collection, type DocumentStore, type NewOutboxEvent } from '@rde/platform';

export type RunStatus = 'running' | 'succeeded' | 'failed';

export interface RunCharge {
  readonly charge_id: string;
  readonly millicredits: number;
}

/** One single tool call (collection `runs`, `_id` = run id = hold id). */
export interface RunDocument {
  _id: string;
  workspace_id: string;
  user_id: string;
  session_id: string;
  tool: string;
  method: string;
  status: RunStatus;
  reserved_millicredits: number;
  charges: RunCharge[];
  credits_charged_millicredits: number;
  dataset_id?: string;
  row_count?: number;
  /** Why a failed run failed (provider or dataset error), for operators. */
  error?: string;
  created_at: Date;
  finished_at?: Date;
  [field: string]: unknown;
}

export type NewRun = Pick<
  RunDocument,
  '_id' | 'workspace_id' | 'user_id' | 'session_id' | 'tool' | 'method' | 'reserved_millicredits'
>;

export interface RunOutcome {
  readonly status: Exclude<RunStatus, 'running'>;
  readonly charges: RunCharge[];
  readonly datasetId?: string;
  readonly rowCount?: number;
  readonly error?: string;
}

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

  /**
   * Writes the run's outcome and its settlement in ONE guarded update: the settlement exists if and
   * only if the run finished, and a second finish of the same run writes nothing (returns false).
   */
  async finish(runId: string, outcome: RunOutcome, settlement: NewOutboxEvent): Promise<boolean> {
    const result = await this.runs.updateOne(
      { _id: runId, status: 'running' },
      {
        $set: {
          status: outcome.status,
          charges: outcome.charges,
          credits_charged_millicredits: outcome.charges.reduce((sum, charge) => sum + charge.millicredits, 0),
          finished_at: new Date(this.clock.now()),
          ...(outcome.datasetId !== undefined && { dataset_id: outcome.datasetId, row_count: outcome.rowCount }),
          ...(outcome.error !== undefined && { error: outcome.error }),
        },
        $push: outboxPush([settlement], this.clock),
      },
    );
    return result.matched === 1;
  }

  get(runId: string): Promise<RunDocument | null> {
    return this.runs.findOne({ _id: runId });
  }
}
