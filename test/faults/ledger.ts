import { api } from '../e2e/api';
import type { RunningRde } from '../e2e/harness';

export interface LedgerCharge {
  id: string;
  runId: string;
  /** millicredits charged (positive) */
  amount: number;
}

/**
 * The charge rows of the workspace's CSV export. id, kind and amount lead; run_id is counted from the
 * end by the header, as only the description (between them) may hold a comma.
 */
export async function ledgerCharges(rde: RunningRde, key: string): Promise<LedgerCharge[]> {
  const csv = await api(rde, 'GET', '/api/v2/billing/ledger.csv', { key });
  const [header, ...rows] = csv.text
    .trimEnd()
    .split('\n')
    .map((line) => line.split(','));
  const runIdFromEnd = header!.length - header!.indexOf('run_id');
  return rows
    .filter((row) => row[2] === 'charge')
    .map((row) => ({
      id: row[0]!,
      runId: row[row.length - runIdFromEnd]!,
      amount: -Math.round(Number(row[3]) * 1000),
    }));
}
