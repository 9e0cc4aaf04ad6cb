import type { Filter, Update } from '@rde/platform';
import { capTags, spendIncrements, type CapTags } from '../domain/caps';
import { chargeKey, holdRemaining, splitCharge } from '../domain/holds';
import { purchasedRemaining } from '../domain/purchases';
import { ownEntry, type AccountDocument, type AppliedCharge, type Draw, type HoldRecord } from './account-document';

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
