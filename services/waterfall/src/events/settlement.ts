import type { NewOutboxEvent } from '@rde/platform';
import { billingEvents, topics } from '@rde/proto';
import { settlementIdOf } from '../domain/ids';
import type { RunCharge } from '../store/runs';

export interface SettlementOf {
  readonly runId: string;
  readonly workspaceId: string;
  readonly userId: string;
  readonly sessionId: string;
  readonly charges: readonly RunCharge[];
  readonly createdAtMs: number;
  /** Default: the run's one final settlement. A provider job settles under its own id. */
  readonly settlementId?: string;
  /** Default: the run id (a run's hold id is its run id). */
  readonly holdId?: string;
  /** Default true: billing releases the rest of the hold. False while a provider job of the run is open. */
  readonly final?: boolean;
}

/**
 * A settlement of a waterfall run's hold: one charge per billed step, and, when final, the release
 * of the rest of the hold. Keyed by workspace so a workspace's settlements stay ordered.
 */
export function settlementEvent(settlement: SettlementOf): NewOutboxEvent {
  const id = settlement.settlementId ?? settlementIdOf(settlement.runId);
  const value = billingEvents.Settlement.encode({
    settlementId: id,
    workspaceId: settlement.workspaceId,
    holdId: settlement.holdId ?? settlement.runId,
    runId: settlement.runId,
    charges: settlement.charges.map((charge) => ({
      chargeId: charge.charge_id,
      amount: { millicredits: charge.millicredits },
      description: charge.description,
      userId: settlement.userId,
      sessionId: settlement.sessionId,
    })),
    final: settlement.final ?? true,
    createdAtMs: settlement.createdAtMs,
  }).finish();
  return { id, topic: topics.SETTLEMENTS, key: settlement.workspaceId, value };
}
