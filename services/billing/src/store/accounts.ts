import { DuplicateKeyError, type Collection } from '@rde/platform';
import { spendIncrements, type CapTags } from '../domain/caps';
import type { AccountDocument, AppliedCharge, Draw, HoldRecord, NewHold } from './account-document';
import { drawWrite, releaseWrite, type AccountWrite } from './account-writes';
import type { CapGuard } from './cap-guard';

// The account's document shapes live beside it; most callers read them from here.
export {
  ownEntry,
  type AccountDocument,
  type AppliedCharge,
  type Draw,
  type HoldRecord,
  type NewHold,
} from './account-document';

/** The account's atomic steps. Each returns whether its guard held; callers re-read and retry. */
export class AccountsRepository {
  constructor(private readonly collection: Collection<AccountDocument>) {}

  find(workspaceId: string): Promise<AccountDocument | null> {
    return this.collection.findOne({ _id: workspaceId });
  }

  /** Creates the account with its opening balance, or returns the one already there. */
  async open(workspaceId: string, openingBalance: number, now: number): Promise<AccountDocument> {
    const fields: Omit<AccountDocument, '_id'> = {
      balance: openingBalance,
      reserved: 0,
      available: openingBalance,
      open_holds: 0,
      holds: {},
      late_charges: {},
      plan_id: 'free',
      created_at: now,
    };
    try {
      const opened = await this.collection.findOneAndUpdate(
        { _id: workspaceId },
        { $setOnInsert: fields },
        { upsert: true },
      );
      if (opened) return opened;
    } catch (error) {
      if (!(error instanceof DuplicateKeyError)) throw error; // a concurrent first access created it
    }
    const existing = await this.find(workspaceId);
    if (!existing) throw new Error(`account ${workspaceId} was neither created nor found`);
    return existing;
  }

  /**
   * Holds `amount` when the available balance covers it, no hold of this id stands and the caps
   * guard holds; counts it against its cap scopes in the same write.
   */
  reserve(workspaceId: string, hold: NewHold, tags: CapTags, guard: CapGuard): Promise<AccountDocument | null> {
    const path = `holds.${hold.id}`;
    const record: HoldRecord = {
      amount: hold.amount,
      drawn: 0,
      expires_at: hold.expiresAt,
      run_id: hold.runId,
      description: hold.description,
      created_at: hold.createdAt,
      applied: {},
      caps: tags,
    };
    return this.collection.findOneAndUpdate(
      { _id: workspaceId, available: { $gte: hold.amount }, [path]: { $exists: false }, ...guard.filter },
      {
        $inc: {
          available: -hold.amount,
          reserved: hold.amount,
          open_holds: 1,
          ...spendIncrements(tags, hold.amount),
        },
        $set: { [path]: record },
      },
    );
  }

  /**
   * Moves an open hold's expiry to `expiresAt` when that is later; never creates a hold, so a
   * settled, released or reaped one stays gone. Returns whether the hold was moved.
   */
  async extendHold(workspaceId: string, holdId: string, expiresAt: number): Promise<boolean> {
    const path = `holds.${holdId}`;
    const result = await this.collection.updateOne(
      { _id: workspaceId, [path]: { $exists: true }, [`${path}.expires_at`]: { $lt: expiresAt } },
      { $set: { [`${path}.expires_at`]: expiresAt } },
    );
    return result.matched === 1;
  }

  /** The accounts of these workspaces that exist, in one read. */
  async findMany(workspaceIds: string[]): Promise<Map<string, AccountDocument>> {
    const found = await this.collection.find({ _id: { $in: workspaceIds } });
    return new Map(found.map((account) => [account._id, account]));
  }

  /**
   * Draws charges in one compare-and-set on the balance and on the drawn amount of each hold they
   * draw on, so the balance after each one, stored with it, is exact. A charge whose hold is gone
   * (released, expired) is a late charge. What no hold covered (a late charge, or a charge beyond
   * its hold) is added to the caps' spend in the same write, where the hold's scopes (or the
   * charge's member and session) would have counted it, so the next Reserve sees it.
   * Returns what it recorded, or undefined when a guard failed.
   */
  async draw(account: AccountDocument, draws: Draw[], now: number): Promise<AppliedCharge[] | undefined> {
    const { write, recorded } = drawWrite(account, draws, now);
    const result = await this.collection.updateOne(write.filter, write.update);
    return result.matched === 1 ? recorded : undefined;
  }

  /** Removes the holds and gives back what they did not draw (to the balance and to the caps' spend), if each is still as read. */
  async release(workspaceId: string, holds: [string, HoldRecord][]): Promise<boolean> {
    const { filter, update } = releaseWrite(workspaceId, holds);
    return (await this.collection.updateOne(filter, update)).matched === 1;
  }

  /**
   * Runs guarded writes of several accounts (drawWrite, releaseWrite) in one bulk write; true when
   * every guard held. When one failed, which did is unknown: the caller re-reads those accounts.
   */
  async writeEach(writes: AccountWrite[]): Promise<boolean> {
    return (await this.collection.updateEach(writes)) === writes.length;
  }

  withOpenHolds(): AsyncIterable<AccountDocument> {
    return this.collection.stream({ open_holds: { $gt: 0 } });
  }
}
