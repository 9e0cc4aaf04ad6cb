import type { Caller } from '@rde/platform';
import type { billing, common } from '@rde/proto';
import type { Clients } from '../../clients';
import { credits } from '../../credits';

/** Billing reads always show an amount: an absent one is zero. */
export function creditsOrZero(amount: common.Credits | undefined): number {
  return credits(amount) ?? 0;
}

/** The columns of the CSV export, in order; the JSON ledger entries carry the same fields. */
export const LEDGER_COLUMNS = [
  'id',
  'created_at',
  'kind',
  'amount',
  'balance_after',
  'description',
  'run_id',
  'user_id',
  'session_id',
  'workflow_run_id',
] as const;

export type LedgerRow = Record<(typeof LEDGER_COLUMNS)[number], string | number | null>;

export function ledgerRow(entry: billing.LedgerEntry): LedgerRow {
  return {
    id: entry.id,
    created_at: new Date(entry.createdAtMs).toISOString(),
    kind: entry.kind,
    amount: creditsOrZero(entry.amount),
    balance_after: entry.balanceAfter ? creditsOrZero(entry.balanceAfter) : null,
    description: entry.description,
    run_id: entry.runId || null,
    user_id: entry.userId || null,
    session_id: entry.sessionId || null,
    workflow_run_id: entry.workflowRunId || null,
  };
}

/** Entries fetched a page at a time. */
export const LEDGER_PAGE = 500;

/**
 * The whole ledger, oldest first, one ListLedger page at a time, starting from a page already
 * fetched (so a failure before the first byte is still a proper error response).
 */
export async function* ledgerRows(
  clients: Clients,
  caller: Caller,
  first: billing.ListLedgerResponse,
): AsyncGenerator<LedgerRow> {
  let page = first;
  for (let offset = 0; ;) {
    for (const entry of page.entries) yield ledgerRow(entry);
    offset += page.entries.length;
    if (page.entries.length < LEDGER_PAGE || offset >= (page.page?.total ?? 0)) return;
    page = await clients.billing.listLedger({ page: { offset, limit: LEDGER_PAGE } }, { caller });
  }
}
