import { createHash, type Hash } from 'node:crypto';
import { canonicalJson } from '../enrich/ids';
import type { Row } from '../enrich/subject';
import type { RowRange } from './request';

/** The rows a run walks: `[start, end)` of the input, clamped to its size. */
export interface Slice {
  readonly start: number;
  readonly end: number;
}

/** Rule 1: the range's rows are walked, the rest pass through; a range past the last row walks none. */
export function sliceOf(range: RowRange | undefined, rowCount: number): Slice {
  const start = Math.min(range?.start ?? 0, rowCount);
  const end = Math.min(range?.end ?? rowCount, rowCount);
  return { start, end: Math.max(start, end) };
}

/** The chunks a slice is cut into for the workers: consecutive, each at most `size` rows. */
export function chunksOf(slice: Slice, size: number): Slice[] {
  const chunks: Slice[] = [];
  for (let start = slice.start; start < slice.end; start += size) {
    chunks.push({ start, end: Math.min(slice.end, start + size) });
  }
  return chunks;
}

/** A fresh hash of a run's input rows for rule 4's key, fed page by page as they are read. */
export const newRowsHash = (): Hash => createHash('sha256');

/** Feeds rows to the hash, each object's keys in sorted order (key order does not matter). */
export function hashRows(hash: Hash, rows: readonly Row[]): Hash {
  for (const row of rows) hash.update(canonicalJson(row)).update('\n');
  return hash;
}

/**
 * Rule 4: identical rows, steps and range reattach. The key hashes the rows (`hashRows`), the
 * steps in their order and the slice, per workspace.
 */
export function runReplayKeyOf(workspaceId: string, rows: Hash, steps: readonly string[], slice: Slice) {
  rows.update(JSON.stringify({ steps, slice }));
  return `enrich-run-replay:${workspaceId}:${rows.digest('hex')}`;
}

/** A run's chunk document id. */
export const chunkIdOf = (runId: string, chunk: number) => `${runId}:c${chunk}`;

/**
 * Rule 2: how many of the slice's rows the credits available can cover at the worst case. A run
 * holds that many rows' worth; rows past them are not reached.
 */
export function rowsCovered(available: number, worstPerRow: number, rows: number): number {
  if (worstPerRow <= 0) return rows;
  return Math.max(0, Math.min(rows, Math.floor(available / worstPerRow)));
}

/** Rule 2's warning: the balance covers some rows of the range at the worst case, not all. */
export function partialBudgetWarning(covered: number, inRange: number) {
  return {
    code: 'partial_budget',
    rows_covered: covered,
    rows_in_range: inRange,
    message: `The balance covers ${covered} of ${inRange} rows at the worst-case rate; the run stops cleanly when the credits run out and rows not reached stay untouched.`,
  };
}
