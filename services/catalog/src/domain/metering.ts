/** A workspace's account as billing answered the call's Reserve, in millicredits (this call's hold included). */
export interface AccountAtReserve {
  readonly balance: number;
  readonly reserved: number;
}

/** What a finished paid call's `_meta` says about the workspace, in millicredits. */
export interface CallMetering {
  readonly balance: number;
  readonly reserved: number;
  readonly settled: boolean;
}

/**
 * The workspace as a paid call leaves it, before billing applies the call's settlement. The call's
 * own hold is over (its final settlement releases it), so `reserved` is the workspace's other open
 * holds, and the provisional balance is the balance less those holds and less this call's charge
 * (decision 0004: balance minus holds). A call that charged nothing leaves billing nothing to
 * apply: with no other hold open it is settled.
 */
export function meteringAfterCall(account: AccountAtReserve, ownHold: number, charged: number): CallMetering {
  const otherHolds = Math.max(0, account.reserved - ownHold);
  return {
    balance: account.balance - otherHolds - charged,
    reserved: otherHolds,
    settled: charged === 0 && otherHolds === 0,
  };
}
