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
 * The workspace as a finished paid call (a tool call, a search) leaves it, before billing applies
 * the call's settlement. The call's own hold is over (its final settlement releases it), so
 * `reserved` is the workspace's other open holds, and the balance is the balance less those holds
 * and less this call's charge (decision 0004: balance minus holds). The charge is final (written
 * with the call's outcome), so the call is settled unless other credits are held (spec `_meta`:
 * false only while credits are held for in-flight work or a provider job is open; decision 0057).
 */
export function meteringAfterCall(account: AccountAtReserve, ownHold: number, charged: number): CallMetering {
  const otherHolds = Math.max(0, account.reserved - ownHold);
  return {
    balance: account.balance - otherHolds - charged,
    reserved: otherHolds,
    settled: otherHolds === 0,
  };
}
