import type { Document } from '@rde/platform';
import type { CapFields, CapTags } from '../domain/caps';
import type { PlanId } from '../domain/plans';

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
