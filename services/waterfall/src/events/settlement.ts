import type { NewOutboxEvent } from '@rde/platform';
import { billingEvents } from '@rde/proto';
import { settlementIdOf } from '../domain/ids';
import type { RunCharge } from '../store/runs';

export const SETTLEMENTS_TOPIC = 'billing.settlements';

export interface SettlementOf {
  readonly runId: string;
  readonly workspaceId: string;
  readonly userId: string;
  readonly sessionId: string;
  readonly charges: readonly RunCharge[];
  readonly createdAtMs: number;
}

/**
 * The final settlement of a waterfall run (hold id = run id): one charge per billed step, and the
 * release of the rest of the hold. Keyed by workspace so a workspace's settlements stay ordered.
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
      description: charge.description,
      userId: settlement.userId,
      sessionId: settlement.sessionId,
    })),
    final: true,
    createdAtMs: settlement.createdAtMs,
  }).finish();
  return { id, topic: SETTLEMENTS_TOPIC, key: settlement.workspaceId, value };
}
