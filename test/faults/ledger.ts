import { api } from '../e2e/api';
import type { RunningRde } from '../e2e/harness';

export interface LedgerCharge {
  id: string;
  runId: string;
  /** millicredits charged (positive) */
  amount: number;
}

/** The charge rows of the workspace's CSV export (id, kind and amount lead; run_id is third from the end). */
export async function ledgerCharges(rde: RunningRde, key: string): Promise<LedgerCharge[]> {
  const csv = await api(rde, 'GET', '/api/v2/billing/ledger.csv', { key });
  return csv.text
    .trimEnd()
    .split('\n')
    .slice(1)
    .map((line) => line.split(','))
    .filter((row) => row[2] === 'charge')
    .map((row) => ({ id: row[0]!, runId: row[row.length - 3]!, amount: -Math.round(Number(row[3]) * 1000) }));
}
