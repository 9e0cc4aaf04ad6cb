import {
  PaidRunRepository,
  type Clock,
  type DocumentStore,
  type PaidRunCharge,
  type PaidRunDocument,
  type PaidRunOutcome,
} from '@rde/platform';

export type RunStatus = PaidRunDocument['status'];
export type RunCharge = PaidRunCharge;
export type RunOutcome = PaidRunOutcome;

/** One single tool call (collection `runs`, `_id` = run id = hold id). */
export interface RunDocument extends PaidRunDocument {
  tool: string;
  method: string;
  /**
   * What the call answered, as JSON: `{ result, meta }`, or `{ error: { status, body } }` for a
   * failure after the hold. A retry of the call (same run id) answers it again.
   */
  answer_json?: string;
}

export type NewRun = Pick<
  RunDocument,
  '_id' | 'workspace_id' | 'user_id' | 'session_id' | 'tool' | 'method' | 'reserved_millicredits'
>;

/** Tool-call runs: the platform's paid runs with the tool and method called. */
export class RunRepository extends PaidRunRepository<RunDocument> {
  static async open(store: DocumentStore, clock: Clock): Promise<RunRepository> {
    const runs = store.collection<RunDocument>('runs');
    await runs.createIndex({ keys: { workspace_id: 1, created_at: -1 } });
    return new RunRepository(runs, clock);
  }
}
