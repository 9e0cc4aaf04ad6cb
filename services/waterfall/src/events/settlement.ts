import type { NewOutboxEvent } from '@rde/platform';
import { billingEvents } from '@rde/proto';

export const SETTLEMENTS_TOPIC = 'billing.settlements';

export interface SettlementCharge {
  readonly charge_id: string;
  readonly millicredits: number;
}

export interface SettlementOf {
  /** Deterministic per settlement, for logs; billing is idempotent per charge id. */
  readonly settlementId: string;
  readonly holdId: string;
  readonly runId: string;
  readonly workspaceId: string;
  readonly userId: string;
  readonly sessionId: string;
  readonly description: string;
  readonly charges: readonly SettlementCharge[];
  /** The work is done: billing releases the rest of the hold. */
  readonly final: boolean;
  readonly createdAtMs: number;
}

/** A settlement for the outbox, keyed by workspace so a workspace's settlements stay ordered. */
export function settlementEvent(settlement: SettlementOf): NewOutboxEvent {
  const value = billingEvents.Settlement.encode({
    settlementId: settlement.settlementId,
    workspaceId: settlement.workspaceId,
    holdId: settlement.holdId,
    runId: settlement.runId,
    charges: settlement.charges.map((charge) => ({
      chargeId: charge.charge_id,
      amount: { millicredits: charge.millicredits },
      description: settlement.description,
      userId: settlement.userId,
      sessionId: settlement.sessionId,
    })),
    final: settlement.final,
    createdAtMs: settlement.createdAtMs,
  }).finish();
  return { id: settlement.settlementId, topic: SETTLEMENTS_TOPIC, key: settlement.workspaceId, value };
}
