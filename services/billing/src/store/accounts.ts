import { DuplicateKeyError, type Collection, type Document } from '@rde/platform';
import { spendIncrements, type CapFields, type CapTags } from '../domain/caps';
import { chargeKey, holdRemaining, splitCharge } from '../domain/holds';
import type { PlanId } from '../domain/plans';
import type { CapGuard } from './caps';

/** A charge drawn on the account, kept where a replay looks for it (decision 0004, amended). */
export interface AppliedCharge {
  charge_id: string;
  balance_after: number;
}

export interface HoldRecord {
  amount: number;
  drawn: number;
  expires_at: number;
  run_id: string;
  description: string;
  created_at: number;
  /** by chargeKey(charge id) */
  applied: Record<string, AppliedCharge>;
  /** Where the hold was counted against the caps (absent on holds made before caps existed). */
  caps?: CapTags;
}

/**
 * Collection `accounts`, `_id` = workspace id. One document holds the money and the open holds, so
 * every money step is one conditional single-document update (no transactions on FerretDB).
 */
export interface AccountDocument extends Document, CapFields {
  balance: number;
  reserved: number;
  /** balance − reserved, kept explicitly: FerretDB lacks `$expr` to compare two fields. */
  available: number;
  open_holds: number;
  holds: Record<string, HoldRecord>;
  /** Charges whose hold was already released (expired); by chargeKey(charge id). */
  late_charges: Record<string, AppliedCharge>;
  plan_id: PlanId;
  created_at: number;
  /** Plan grants and rollover cuts applied, by chargeKey(entry id) (decision 0022). */
  grants?: Record<string, { entry_id: string; balance_after: number }>;
}

/** A record's own entry: ids come from callers, so `constructor` must not find Object's. */
export function ownEntry<V>(record: Record<string, V>, key: string): V | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

export interface NewHold {
  id: string;
  amount: number;
  expiresAt: number;
  runId: string;
  description: string;
  createdAt: number;
}

/** The account's atomic steps. Each returns whether its guard held; callers re-read and retry. */
export class AccountStore {
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
          ...guard.increments,
        },
        $set: { [path]: record },
      },
    );
  }

  /**
   * Draws a charge on an open hold. Guarded by the balance and the hold's drawn amount as read
   * (compare-and-set), so the balance after it, stored with the charge, is exact.
   */
  async drawOnHold(account: AccountDocument, holdId: string, chargeId: string, amount: number): Promise<boolean> {
    const hold = ownEntry(account.holds, holdId);
    if (!hold) return false;
    const path = `holds.${holdId}`;
    const key = `${path}.applied.${chargeKey(chargeId)}`;
    const { fromHold, beyondHold } = splitCharge(amount, hold);
    const balanceAfter = account.balance - amount;
    const result = await this.collection.updateOne(
      { _id: account._id, balance: account.balance, [`${path}.drawn`]: hold.drawn, [key]: { $exists: false } },
      {
        $set: { balance: balanceAfter, [key]: { charge_id: chargeId, balance_after: balanceAfter } },
        $inc: { reserved: -fromHold, available: -beyondHold, [`${path}.drawn`]: amount },
      },
    );
    return result.matched === 1;
  }

  /** Applies a charge whose hold is gone, once per charge id. */
  async drawLate(account: AccountDocument, chargeId: string, amount: number): Promise<boolean> {
    const key = `late_charges.${chargeKey(chargeId)}`;
    const balanceAfter = account.balance - amount;
    const result = await this.collection.updateOne(
      { _id: account._id, balance: account.balance, [key]: { $exists: false } },
      {
        $set: { balance: balanceAfter, [key]: { charge_id: chargeId, balance_after: balanceAfter } },
        $inc: { available: -amount },
      },
    );
    return result.matched === 1;
  }

  /** Removes the hold and gives back what it did not draw, if it is still as read. */
  async release(workspaceId: string, holdId: string, hold: HoldRecord): Promise<boolean> {
    const path = `holds.${holdId}`;
    const rest = holdRemaining(hold);
    const result = await this.collection.updateOne(
      { _id: workspaceId, [`${path}.drawn`]: hold.drawn },
      {
        $inc: { reserved: -rest, available: rest, open_holds: -1, ...(hold.caps && spendIncrements(hold.caps, -rest)) },
        $unset: { [path]: '' },
      },
    );
    return result.matched === 1;
  }

  withOpenHolds(): AsyncIterable<AccountDocument> {
    return this.collection.stream({ open_holds: { $gt: 0 } });
  }
}
