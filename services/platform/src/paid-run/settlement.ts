import { billingEvents, topics } from '@rde/proto';
import type { NewOutboxEvent } from '../outbox';
import type { PaidRunCharge } from './charges';

/** A run's final settlement: its charges, and the release of the rest of its hold (hold id = run id). */
export interface FinalSettlement {
  readonly settlementId: string;
  readonly runId: string;
  readonly workspaceId: string;
  readonly userId: string;
  readonly sessionId: string;
  /** The workflow run whose step made the charges (decision 0074); empty outside workflows. */
  readonly workflowRunId?: string;
  readonly description: string;
  readonly charges: readonly PaidRunCharge[];
  readonly createdAtMs: number;
}

/**
 * A settlement that may leave its hold open (`final: false`): a provider job's charges while the
 * run's hold stays for its other jobs. The hold is the run's unless `holdId` says otherwise.
 */
export interface Settlement extends FinalSettlement {
  readonly holdId?: string;
  readonly final: boolean;
}

/** The settlement as an outbox event, keyed by workspace so a workspace's settlements stay ordered. */
export function finalSettlementEvent(settlement: FinalSettlement): NewOutboxEvent {
  return settlementEvent({ ...settlement, final: true });
}

export function settlementEvent(settlement: Settlement): NewOutboxEvent {
  const value = billingEvents.Settlement.encode({
    settlementId: settlement.settlementId,
    workspaceId: settlement.workspaceId,
    holdId: settlement.holdId ?? settlement.runId,
    runId: settlement.runId,
    charges: settlement.charges.map((charge) => ({
      chargeId: charge.charge_id,
      amount: { millicredits: charge.millicredits },
      description: charge.description ?? settlement.description,
      userId: settlement.userId,
      sessionId: settlement.sessionId,
      workflowRunId: settlement.workflowRunId || undefined,
    })),
    final: settlement.final,
    createdAtMs: settlement.createdAtMs,
  }).finish();
  return { id: settlement.settlementId, topic: topics.SETTLEMENTS, key: settlement.workspaceId, value };
}
