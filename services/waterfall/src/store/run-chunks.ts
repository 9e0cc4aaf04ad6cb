import { CollectionRepository, indexedCollection, outboxPush } from '@rde/platform';
import type { Clock, DocumentStore, NewOutboxEvent } from '@rde/platform';
import type { RunCharge } from './runs';

export type ChunkStatus = 'pending' | 'done';

/** What a chunk's walk found, per step: rows that hit, missed, or were left with an open job. */
export interface ChunkCounts {
  readonly hits: number;
  readonly misses: number;
  readonly open: number;
  /** Rows the chunk did not walk: past the run's budget, or the run was cancelled. */
  readonly not_reached: number;
  /** Hits per step (capability). */
  readonly step_hits: Record<string, number>;
  /** Millicredits the chunk's rows cost (its own charges and its provider jobs' hits). */
  readonly spent_millicredits: number;
  /** What the chunk took from the run's budget and did not need (given back when it is counted). */
  readonly unused_millicredits: number;
}

/** One chunk of a dataset run (collection `enrich_run_chunks`, `_id` = `<run>:c<n>`). */
export interface RunChunkDocument extends Partial<ChunkCounts> {
  _id: string;
  run_id: string;
  workspace_id: string;
  chunk: number;
  start: number;
  end: number;
  status: ChunkStatus;
  lease_owner: string;
  lease_until: Date;
  /** Rows (from `start`) the run's budget let this chunk walk; set once, before the walk. */
  admitted?: number;
  /** Walks of the chunk that failed; a chunk that keeps failing is given up (decision 0032). */
  failures?: number;
  /** The run counted the chunk (progress, budget): set after the run's own guarded count. */
  counted?: boolean;
  charges?: RunCharge[];
  [field: string]: unknown;
}

/**
 * A run's chunks. Whoever holds a chunk's lease walks it; ending it is one guarded update that also
 * writes the chunk's settlement, so a chunk is billed once however often it is delivered.
 */
export class RunChunkRepository extends CollectionRepository<RunChunkDocument> {
  static async open(store: DocumentStore, clock: Clock): Promise<RunChunkRepository> {
    const collection = await indexedCollection<RunChunkDocument>(store, 'enrich_run_chunks', [
      { keys: { run_id: 1, chunk: 1 } },
      { keys: { status: 1, lease_until: 1 } },
    ]);
    return new RunChunkRepository(collection, clock);
  }

  async insert(chunks: RunChunkDocument[]): Promise<void> {
    if (chunks.length > 0) await this.collection.insertMany(chunks);
  }

  /** Takes a pending chunk whose lease is free (never taken, or its worker stopped renewing). */
  claim(id: string, owner: string, leaseMs: number): Promise<RunChunkDocument | null> {
    const now = this.clock.now();
    return this.collection.findOneAndUpdate(
      { _id: id, status: 'pending', lease_until: { $lt: new Date(now) } },
      { $set: { lease_owner: owner, lease_until: new Date(now + leaseMs) } },
    );
  }

  /** Pending chunks whose lease lapsed: their worker died, or they wait for budget. */
  lapsed(limit: number): Promise<RunChunkDocument[]> {
    return this.collection.find({ status: 'pending', lease_until: { $lt: new Date(this.clock.now()) } }, { limit });
  }

  /** Ended chunks the run has not counted yet (their worker died in between). */
  uncounted(limit: number): Promise<RunChunkDocument[]> {
    return this.collection.find({ status: 'done', counted: { $ne: true } }, { limit });
  }

  async renew(id: string, owner: string, leaseMs: number): Promise<void> {
    await this.collection.updateOne(
      { _id: id, status: 'pending', lease_owner: owner },
      { $set: { lease_until: new Date(this.clock.now() + leaseMs) } },
    );
  }

  /** Gives the chunk back, to be taken again at `at`; `failed` counts a failed walk. */
  async release(id: string, owner: string, at: Date, failed = false): Promise<void> {
    await this.collection.updateOne(
      { _id: id, status: 'pending', lease_owner: owner },
      { $set: { lease_until: at }, ...(failed && { $inc: { failures: 1 } }) },
    );
  }

  async admit(id: string, owner: string, rows: number): Promise<boolean> {
    const result = await this.collection.updateOne(
      { _id: id, status: 'pending', lease_owner: owner, admitted: { $exists: false } },
      { $set: { admitted: rows } },
    );
    return result.matched === 1;
  }

  /** Ends the chunk with its counts and settlement in one guarded update; false when it already ended. */
  async complete(
    id: string,
    owner: string,
    counts: ChunkCounts,
    charges: RunCharge[],
    settlement: NewOutboxEvent | undefined,
  ): Promise<RunChunkDocument | null> {
    return this.collection.findOneAndUpdate(
      { _id: id, status: 'pending', lease_owner: owner },
      {
        $set: { status: 'done', ...counts, charges },
        ...(settlement && { $push: outboxPush([settlement], this.clock) }),
      },
    );
  }

  async markCounted(id: string): Promise<void> {
    await this.collection.updateOne({ _id: id }, { $set: { counted: true } });
  }

  ofRun(runId: string): Promise<RunChunkDocument[]> {
    return this.collection.find({ run_id: runId }, { sort: { chunk: 1 } });
  }
}
