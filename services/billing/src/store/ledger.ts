import { DuplicateKeyError, type Collection } from '@rde/platform';
import type { LedgerEntry } from '../domain/ledger';

/** Oldest first; the id breaks ties between entries of one millisecond. */
const OLDEST_FIRST = { created_at: 1, _id: 1 } as const;
const NEWEST_FIRST = { created_at: -1, _id: -1 } as const;

export class LedgerStore {
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

  /** Sets the balance after an applied entry; the first value written stays. */
  async recordBalanceAfter(id: string, balanceAfter: number): Promise<void> {
    await this.collection.updateOne(
      { _id: id, balance_after: { $exists: false } },
      { $set: { balance_after: balanceAfter } },
    );
  }

  async balanceAfter(id: string): Promise<number | undefined> {
    return (await this.collection.findOne({ _id: id }))?.balance_after;
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
