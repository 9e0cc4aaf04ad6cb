import {
  PaidRunRepository,
  type Clock,
  type DocumentStore,
  type PaidRunCharge,
  type PaidRunDocument,
} from '@rde/platform';

/** A billed step: every waterfall charge names its step on the ledger. */
export type RunCharge = PaidRunCharge & { readonly description: string };

/** One waterfall run (collection `runs`, `_id` = run id = hold id): a search or an enrichment. */
export interface RunDocument extends PaidRunDocument {
  /** `people_search`, or an enrichment waterfall's name. */
  waterfall: string;
  /** The steps as the client saw them, for support and audits. */
  steps?: unknown[];
  /** What the call answered (a search's result and `_meta`), for a repeat with the same run id. */
  answer_json?: string;
}

export type NewRun = Pick<
  RunDocument,
  '_id' | 'waterfall' | 'workspace_id' | 'user_id' | 'session_id' | 'reserved_millicredits'
>;

/** Waterfall runs: the platform's paid runs with the waterfall's name and its steps. */
export class RunRepository extends PaidRunRepository<RunDocument> {
  static async open(store: DocumentStore, clock: Clock): Promise<RunRepository> {
    const runs = store.collection<RunDocument>('runs');
    await runs.createIndex({ keys: { workspace_id: 1, created_at: -1 } });
    return new RunRepository(runs, clock);
  }
}
