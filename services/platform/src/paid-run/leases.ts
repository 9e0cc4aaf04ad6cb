import type { Clock } from '../clock';
import { leaseHeartbeat } from '../lease-heartbeat';
import type { Collection, Document, Filter } from '../ports/document-store';

/** A run walked by one process at a time: that process renews the lease; once it lapses the run is anyone's. */
export interface LeasedRun extends Document {
  status: string;
  lease_owner: string;
  lease_until: Date;
}

/**
 * Take-over of abandoned runs. The process working a run renews its lease every third of its
 * length; a process that died stops renewing, and the first replica to claim the lapsed run (one
 * guarded update, so exactly one wins) works it to its end under the same run id, hold and charge ids.
 */
export class RunLeases<T extends LeasedRun> {
  constructor(
    private readonly runs: Collection<T>,
    private readonly clock: Clock,
    /** How long a lease lasts unrenewed. */
    readonly leaseMs: number,
  ) {}

  /** The lease fields of a run this process starts working. */
  leaseFor(owner: string): Pick<LeasedRun, 'lease_owner' | 'lease_until'> {
    return { lease_owner: owner, lease_until: new Date(this.clock.now() + this.leaseMs) };
  }

  /** Claims one running run (of those `filter` selects) whose lease lapsed; null when none has. */
  claimLapsed(owner: string, filter: Filter = {}): Promise<T | null> {
    const now = this.clock.now();
    return this.runs.findOneAndUpdate(
      { ...filter, status: 'running', lease_until: { $lt: new Date(now) } },
      { $set: this.leaseFor(owner) },
    );
  }

  /** Keeps `owner`'s lease on a running run; a run another replica claimed meanwhile is left alone. */
  async renew(runId: string, owner: string): Promise<void> {
    await this.runs.updateOne(
      { _id: runId, status: 'running', lease_owner: owner },
      { $set: { lease_until: new Date(this.clock.now() + this.leaseMs) } },
    );
  }

  /** Renews the lease every third of its length until the returned stop is called; a failed renewal is reported. */
  heartbeat(runId: string, owner: string, onError: (error: unknown) => void): () => void {
    return leaseHeartbeat(this.leaseMs, () => this.renew(runId, owner), onError);
  }
}
