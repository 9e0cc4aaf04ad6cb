import { CollectionRepository, indexedCollection, outboxPush } from '@rde/platform';
import type { Clock, DocumentStore, NewOutboxEvent } from '@rde/platform';
import type { RunCharge } from './runs';

export type EnrichJobStatus = 'pending' | 'settled' | 'failed' | 'expired';

/** A row waiting on a job: where it lands in the dataset and its walk before this step. */
export interface JobRow {
  readonly index: number;
  /** The correlation key of a batch contact. */
  readonly ref?: string;
  readonly row: Record<string, unknown>;
  /** The row's walk (JSON of `RowWalk`) before the job's step. */
  readonly walk: Record<string, unknown>;
}

/** What a settled job found, per row index. */
export interface JobRowResult {
  readonly index: number;
  readonly row: Record<string, unknown>;
}

/**
 * A provider job (collection `enrich_jobs`, `_id` = `<provider>:<job_id>`). Whoever holds the lease
 * (`lease_owner` until `lease_until`) polls it; a killed poller's lease runs out and another
 * replica takes it. Settling is one guarded update from `pending`, with the settlement in the
 * outbox, so a job is billed once however many pollers and callbacks saw it finish.
 */
export type EnrichJobDocument = {
  _id: string;
  provider: string;
  job_id: string;
  workspace_id: string;
  user_id: string;
  session_id: string;
  /** The workflow run whose step submitted the job: its later settlement's ledger rows name it. */
  workflow_run_id?: string;
  run_id: string;
  dataset_id: string;
  capability: string;
  step_index: number;
  hold_id: string;
  price_millicredits: number;
  rows: JobRow[];
  status: EnrichJobStatus;
  /** sha256 of the callback nonce; the nonce itself is never stored. */
  nonce_hash?: string;
  callback_seen: boolean;
  /** True once the run's walk ended before the job did: whoever settles it writes its rows. */
  handed_off: boolean;
  lease_owner: string;
  lease_until: Date;
  next_poll_at: Date;
  /** After this the job is given up (`expired`, nothing charged). */
  expires_at: Date;
  charges: RunCharge[];
  charged_millicredits: number;
  results: JobRowResult[];
  created_at: Date;
  settled_at?: Date;
};

export type NewEnrichJob = Omit<
  EnrichJobDocument,
  '_id' | 'status' | 'callback_seen' | 'handed_off' | 'charges' | 'charged_millicredits' | 'results' | 'created_at'
>;

export const jobKeyOf = (provider: string, jobId: string) => `${provider}:${jobId}`;

export class EnrichJobRepository extends CollectionRepository<EnrichJobDocument> {
  static async open(store: DocumentStore, clock: Clock): Promise<EnrichJobRepository> {
    const collection = await indexedCollection<EnrichJobDocument>(store, 'enrich_jobs', [
      { keys: { status: 1, next_poll_at: 1 } },
      { keys: { provider: 1, nonce_hash: 1 } },
      // A run's jobs (`ofRun`, `openOfRun`): read on every poll of an enrichment and at a run's end.
      { keys: { run_id: 1, status: 1 } },
    ]);
    return new EnrichJobRepository(collection, clock);
  }

  private now(): Date {
    return new Date(this.clock.now());
  }

  async insert(job: NewEnrichJob): Promise<void> {
    await this.collection.insertOne({
      ...job,
      _id: jobKeyOf(job.provider, job.job_id),
      status: 'pending',
      callback_seen: false,
      handed_off: false,
      charges: [],
      charged_millicredits: 0,
      results: [],
      created_at: this.now(),
    });
  }

  /** Takes (or renews) the job's lease when it is free, lapsed, or already this owner's. */
  async claim(key: string, owner: string, leaseMs: number): Promise<EnrichJobDocument | null> {
    const now = this.now();
    return this.collection.findOneAndUpdate(
      { _id: key, status: 'pending', $or: [{ lease_until: { $lt: now } }, { lease_owner: owner }] },
      { $set: { lease_owner: owner, lease_until: new Date(now.getTime() + leaseMs) } },
    );
  }

  /** Gives the lease up and says when the job is next due; `handOff` marks the run's walk over. */
  async release(key: string, owner: string, nextPollAt: Date, handOff = false): Promise<void> {
    await this.collection.updateOne(
      { _id: key, lease_owner: owner, status: 'pending' },
      { $set: { lease_until: new Date(0), next_poll_at: nextPollAt, ...(handOff && { handed_off: true }) } },
    );
  }

  /** Open jobs due for a poll whose lease is free or lapsed, oldest due first. */
  due(limit: number): Promise<EnrichJobDocument[]> {
    const now = this.now();
    return this.collection.find(
      { status: 'pending', next_poll_at: { $lte: now }, lease_until: { $lt: now } },
      { sort: { next_poll_at: 1 }, limit },
    );
  }

  /**
   * Ends the job with its results and its settlement in ONE guarded update from `pending`: only
   * one settler wins, so the job is billed once. False when it was already settled.
   */
  async settle(
    key: string,
    outcome: { status: Exclude<EnrichJobStatus, 'pending'>; charges: RunCharge[]; results: JobRowResult[] },
    settlement: NewOutboxEvent,
  ): Promise<EnrichJobDocument | null> {
    return this.collection.findOneAndUpdate(
      { _id: key, status: 'pending' },
      {
        $set: {
          status: outcome.status,
          charges: outcome.charges,
          charged_millicredits: outcome.charges.reduce((sum, c) => sum + c.millicredits, 0),
          results: outcome.results,
          settled_at: this.now(),
        },
        $push: outboxPush([settlement], this.clock),
      },
    );
  }

  /**
   * A vendor callback for the job the nonce names: true only for the job's first callback, which
   * makes the job due now. Every later or unknown one changes nothing.
   */
  async firstCallback(provider: string, nonceHash: string): Promise<EnrichJobDocument | null> {
    return this.collection.findOneAndUpdate(
      { provider, nonce_hash: nonceHash, status: 'pending', callback_seen: false },
      { $set: { callback_seen: true, next_poll_at: this.now() } },
    );
  }

  /** A job of this workspace; another workspace's is as absent as an unknown one. */
  find(workspaceId: string, provider: string, jobId: string): Promise<EnrichJobDocument | null> {
    return this.collection.findOne({ _id: jobKeyOf(provider, jobId), workspace_id: workspaceId });
  }

  get(key: string): Promise<EnrichJobDocument | null> {
    return this.collection.findOne({ _id: key });
  }

  /** Every job of a run, open or not. */
  ofRun(runId: string): Promise<EnrichJobDocument[]> {
    return this.collection.find({ run_id: runId });
  }

  /** Open jobs of a run, as `_meta.pending_jobs` lists them. */
  openOfRun(runId: string): Promise<EnrichJobDocument[]> {
    return this.collection.find({ run_id: runId, status: 'pending' });
  }
}
