import { finalSettlementEvent, type NewOutboxEvent } from '@rde/platform';
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

/** The final settlement of a tool call (hold id = run id): the charges and the release of the rest. */
export function settlementEvent(settlement: SettlementOf): NewOutboxEvent {
  return finalSettlementEvent({ ...settlement, settlementId: settlementIdOf(settlement.runId) });
}
