import { millicredits } from './credits';
import { FREE_GRANT_CREDITS } from './plans';

export type LedgerKind = 'grant' | 'charge' | 'topup' | 'correction';

/**
 * One append-only ledger line, as stored (collection `ledger`): `_id` is the charge id, so the
 * unique `_id` index makes a replay a no-op.
 */
export type LedgerEntry = {
  _id: string;
  workspace_id: string;
  kind: LedgerKind;
  /** millicredits; negative for charges */
  amount: number;
  description: string;
  run_id: string;
  hold_id: string;
  user_id: string;
  session_id: string;
  /** The workflow run a charge was made for (decision 0074); absent outside workflows. */
  workflow_run_id?: string;
  /** ms since the epoch */
  created_at: number;
  /** Who or what gave an operator's grant (decision 0051); absent on every other entry. */
  granted_by?: string;
  /** The balance right after this entry was applied; absent while it is being applied. */
  balance_after?: number;
};

/** A paid unit of work as a settlement names it. */
export interface Charge {
  id: string;
  /** millicredits, above 0 */
  amount: number;
  description: string;
  userId: string;
  sessionId: string;
  workflowRunId?: string;
}

export interface Settlement {
  id: string;
  workspaceId: string;
  holdId: string;
  runId: string;
  charges: Charge[];
  final: boolean;
}

export const FREE_GRANT = millicredits(FREE_GRANT_CREDITS);

export function grantId(workspaceId: string): string {
  return `grant:free:${workspaceId}`;
}

export function freeGrantEntry(workspaceId: string, now: number): LedgerEntry {
  return {
    _id: grantId(workspaceId),
    workspace_id: workspaceId,
    kind: 'grant',
    amount: FREE_GRANT,
    description: 'Free plan credit grant',
    run_id: '',
    hold_id: '',
    user_id: '',
    session_id: '',
    created_at: now,
    balance_after: FREE_GRANT,
  };
}

export function chargeEntry(settlement: Settlement, charge: Charge, now: number): LedgerEntry {
  return {
    _id: charge.id,
    workspace_id: settlement.workspaceId,
    kind: 'charge',
    amount: -charge.amount,
    description: charge.description,
    run_id: settlement.runId,
    hold_id: settlement.holdId,
    user_id: charge.userId,
    session_id: charge.sessionId,
    ...(charge.workflowRunId && { workflow_run_id: charge.workflowRunId }),
    created_at: now,
  };
}
