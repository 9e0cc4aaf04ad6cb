/** One charge of a run: deterministic id (decision 0004), exact millicredits. */
export interface PaidRunCharge {
  readonly charge_id: string;
  readonly millicredits: number;
  /** The ledger line; the settlement's description when absent. */
  readonly description?: string;
}

/**
 * A charge's id: `<run_id>:<unit>:<step>` (decision 0004), the unit being a row, `0` for a single
 * call, or a workflow's step item. The same work charged again (a retry, a take-over) gets the same
 * id, and billing applies an id once.
 */
export function chargeIdOf(runId: string, unit: string | number, step: string): string {
  return `${runId}:${unit}:${step}`;
}

/** A run's `n`th settlement (0: its one final settlement). */
export function settlementIdOf(runId: string, n = 0): string {
  return `${runId}:settlement:${n}`;
}

/** Sum of charges, in millicredits. */
export function totalOf(charges: readonly PaidRunCharge[]): number {
  return charges.reduce((sum, charge) => sum + charge.millicredits, 0);
}

/** Each charge id once (work walked again after a take-over repeats its ids), in first-seen order. */
export function distinctCharges<C extends PaidRunCharge>(charges: readonly C[]): C[] {
  return [...new Map(charges.map((charge) => [charge.charge_id, charge])).values()];
}

/** A workspace's account as a run's hold left it, in millicredits (this hold included). */
export interface AccountAtHold {
  readonly balance: number;
  readonly reserved: number;
}

/** What a finished run's `_meta` says about the workspace, in millicredits. */
export interface Metering {
  readonly balance: number;
  readonly reserved: number;
  readonly settled: boolean;
}

/**
 * The workspace as a finished run leaves it, before billing applies its settlement. The run's own
 * hold is over (its final settlement releases it), so `reserved` is the workspace's other open
 * holds, and the balance is the balance less those holds and less this run's charges (decision
 * 0004). With no other hold open nothing is held for in-flight work and the figures are final:
 * settled, whether or not billing has applied the written settlement yet (decision 0079).
 */
export function meteringAfter(account: AccountAtHold, ownHold: number, charged: number): Metering {
  const otherHolds = Math.max(0, account.reserved - ownHold);
  return {
    balance: account.balance - otherHolds - charged,
    reserved: otherHolds,
    settled: otherHolds === 0,
  };
}
