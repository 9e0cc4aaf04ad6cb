import { DuplicateKeyError, type Collection } from '@rde/platform';
import type { LedgerEntry } from '../domain/ledger';
import type { AppliedCharge } from './accounts';

/** Oldest first; the id breaks ties between entries of one millisecond. */
const OLDEST_FIRST = { created_at: 1, _id: 1 } as const;
const NEWEST_FIRST = { created_at: -1, _id: -1 } as const;

export class LedgerRepository {
  constructor(private readonly collection: Collection<LedgerEntry>) {}

  async createIndexes(): Promise<void> {
    await this.collection.createIndex({ keys: { workspace_id: 1, created_at: 1, _id: 1 }, name: 'workspace_time' });
  }

  /** Writes the entry once; returns the entry as stored (the earlier one when it was already there). */
  async insertOnce(entry: LedgerEntry): Promise<LedgerEntry> {
    try {
      await this.collection.insertOne(entry);
      return entry;
    } catch (error) {
      if (!(error instanceof DuplicateKeyError)) throw error;
      const stored = await this.collection.findOne({ _id: entry._id });
      if (!stored) throw error;
      return stored;
    }
  }

  /**
   * Writes the entries not there yet in one unordered bulk insert; a duplicate charge id is a
   * replay (or a charge id taken by another workspace), not an error. Returns the entries that were
   * already stored, as stored.
   */
  async insertNew(entries: LedgerEntry[]): Promise<LedgerEntry[]> {
    const { duplicates } = await this.collection.insertMany(entries);
    return duplicates.length === 0 ? [] : this.collection.find({ _id: { $in: duplicates } });
  }

  /** Sets each applied entry's balance after it, in one bulk write; the first value written stays. */
  async recordBalancesAfter(applied: AppliedCharge[]): Promise<void> {
    await this.collection.updateEach(
      applied.map(({ charge_id, balance_after }) => ({
        filter: { _id: charge_id, balance_after: { $exists: false } },
        update: { $set: { balance_after } },
      })),
    );
  }

  /** The balance after each of these entries, for those that have one (they were applied). */
  async balancesAfter(ids: string[]): Promise<Map<string, number>> {
    if (ids.length === 0) return new Map();
    // By `_id` alone, which even a stock mongo-java-server serves from its index (decision 0002).
    const entries = await this.collection.find({ _id: { $in: ids } });
    return new Map(
      entries.flatMap((entry) => (entry.balance_after === undefined ? [] : [[entry._id, entry.balance_after]])),
    );
  }

  page(workspaceId: string, offset: number, limit: number): Promise<LedgerEntry[]> {
    return this.collection.find({ workspace_id: workspaceId }, { sort: OLDEST_FIRST, skip: offset, limit });
  }

  recent(workspaceId: string, limit: number): Promise<LedgerEntry[]> {
    return this.collection.find({ workspace_id: workspaceId }, { sort: NEWEST_FIRST, limit });
  }

  count(workspaceId: string): Promise<number> {
    return this.collection.countDocuments({ workspace_id: workspaceId });
  }
}
