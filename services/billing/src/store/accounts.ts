import { DuplicateKeyError, type Collection, type Document, type Filter, type Update } from '@rde/platform';
import { capTags, spendIncrements, type CapFields, type CapTags } from '../domain/caps';
import { chargeKey, holdRemaining, splitCharge } from '../domain/holds';
import type { PlanId } from '../domain/plans';
import { purchasedRemaining } from '../domain/purchases';
import type { CapGuard } from './cap-guard';

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
  /** Purchased millicredits not yet spent, spent after plan credits (decision 0040); absent = 0. */
  purchased?: number;
  /** Every purchased millicredit ever granted. */
  purchased_total?: number;
}

/** A record's own entry: ids come from callers, so `constructor` must not find Object's. */
export function ownEntry<V>(record: Record<string, V>, key: string): V | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

/** One charge to draw: on its hold when that is open, else as a late charge. */
export interface Draw {
  holdId: string;
  chargeId: string;
  amount: number;
  /** Whom the charge is for: what no hold covered counts against their caps. */
  userId: string;
  sessionId: string;
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

/** A guarded single-account write: the filter is the guard. */
export interface AccountWrite {
  filter: Filter;
  update: Update;
}

/**
 * The write drawing `draws` on the account as read (see AccountsRepository.draw), what it records for
 * each charge, and the holds it draws on as they are once it is applied.
 */
export function drawWrite(account: AccountDocument, draws: Draw[], now: number) {
  // The purchased counter is guarded too: a purchase and a draw of the same amount in between
  // would leave the balance as read but not the counter.
  const filter: Filter = {
    _id: account._id,
    balance: account.balance,
    purchased: account.purchased ?? { $exists: false },
  };
  const $set: Record<string, unknown> = {};
  const $inc: Record<string, number> = { reserved: 0, available: 0 };
  const holdsAfter = new Map<string, HoldRecord>();
  const recorded: AppliedCharge[] = [];
  let balance = account.balance;
  const countUncovered = (tags: CapTags, amount: number) => {
    for (const [path, increment] of Object.entries(spendIncrements(tags, amount))) {
      $inc[path] = ($inc[path] ?? 0) + increment;
    }
  };
  for (const { holdId, chargeId, amount, userId, sessionId } of draws) {
    balance -= amount;
    const record = { charge_id: chargeId, balance_after: balance };
    recorded.push(record);
    const hold = holdId ? ownEntry(account.holds, holdId) : undefined;
    const key = hold ? `holds.${holdId}.applied.${chargeKey(chargeId)}` : `late_charges.${chargeKey(chargeId)}`;
    filter[key] = { $exists: false };
    $set[key] = record;
    if (!hold) {
      $inc.available -= amount;
      countUncovered(capTags(account, userId, sessionId, now), amount);
      continue;
    }
    const before = holdsAfter.get(holdId) ?? hold;
    const { fromHold, beyondHold } = splitCharge(amount, before);
    filter[`holds.${holdId}.drawn`] = hold.drawn;
    $inc.reserved -= fromHold;
    $inc.available -= beyondHold;
    if (beyondHold > 0) countUncovered(hold.caps ?? capTags(account, userId, sessionId, now), beyondHold);
    $inc[`holds.${holdId}.drawn`] = before.drawn + amount - hold.drawn;
    holdsAfter.set(holdId, {
      ...before,
      drawn: before.drawn + amount,
      applied: { ...before.applied, [chargeKey(chargeId)]: record },
    });
  }
  $set.balance = balance;
  const purchasedAfter = purchasedRemaining({ balance, purchased: account.purchased });
  if (purchasedAfter !== (account.purchased ?? 0)) $set.purchased = purchasedAfter;
  return { write: { filter, update: { $set, $inc } }, recorded, holdsAfter };
}

/** The write removing the holds as read and giving back what they did not draw (see AccountsRepository.release). */
export function releaseWrite(workspaceId: string, holds: [string, HoldRecord][]): AccountWrite {
  const filter: Filter = { _id: workspaceId };
  const $unset: Record<string, ''> = {};
  const $inc: Record<string, number> = { reserved: 0, available: 0, open_holds: -holds.length };
  for (const [holdId, hold] of holds) {
    filter[`holds.${holdId}.drawn`] = hold.drawn;
    // A hold renewed since it was read is not the hold the caller decided to release.
    filter[`holds.${holdId}.expires_at`] = hold.expires_at;
    $unset[`holds.${holdId}`] = '';
    const rest = holdRemaining(hold);
    $inc.reserved -= rest;
    $inc.available += rest;
    for (const [path, amount] of Object.entries(hold.caps ? spendIncrements(hold.caps, -rest) : {})) {
      $inc[path] = ($inc[path] ?? 0) + amount;
    }
  }
  return { filter, update: { $inc, $unset } };
}
