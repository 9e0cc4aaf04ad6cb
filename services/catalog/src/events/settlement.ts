import type { NewOutboxEvent } from '@rde/platform';
import { billingEvents, topics } from '@rde/proto';
import { settlementIdOf } from '../domain/ids';
import type { RunCharge } from '../store/runs';

export interface SettlementOf {
  readonly runId: string;
  readonly workspaceId: string;
  readonly userId: string;
  readonly sessionId: string;
  readonly description: string;
  readonly charges: readonly RunCharge[];
  readonly createdAtMs: number;
}

/**
 * The final settlement of a tool call (hold id = run id): the charges to apply and the release of
 * the rest of the hold. Keyed by workspace so a workspace's settlements stay ordered.
 */
export function settlementEvent(settlement: SettlementOf): NewOutboxEvent {
  const id = settlementIdOf(settlement.runId);
  const value = billingEvents.Settlement.encode({
    settlementId: id,
    workspaceId: settlement.workspaceId,
    holdId: settlement.runId,
    runId: settlement.runId,
    charges: settlement.charges.map((charge) => ({
      chargeId: charge.charge_id,
      amount: { millicredits: charge.millicredits },
      description: settlement.description,
      userId: settlement.userId,
      sessionId: settlement.sessionId,
    })),
    final: true,
    createdAtMs: settlement.createdAtMs,
  }).finish();
  return { id, topic: topics.SETTLEMENTS, key: settlement.workspaceId, value };
}
