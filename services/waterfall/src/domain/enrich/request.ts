import { errors, type ValidationIssue } from '@rde/platform';
import type { Row } from './subject';

/** Spec "Limits": rows per enrichment waterfall call. */
export const MAX_ROWS = 100;

/** What a call sends: one `payload` row or up to 100 `rows`. */
export interface RowsRequest {
  readonly payload?: unknown;
  readonly rows?: unknown;
}

/**
 * The rows of a request, refused before anything is spent: `payload` (one object) or `rows` (1 to
 * 100 objects), never both. Checked here as well as by the gateway, for callers that reach the
 * RPC directly.
 */
export function rowsOf(request: RowsRequest): Row[] {
  const { payload, rows } = request;
  if (payload !== undefined && rows !== undefined) {
    throw errors.badRequest({ error: 'invalid_payload', detail: 'send either payload (one row) or rows, not both' });
  }
  if (payload !== undefined) {
    if (!isRow(payload)) throw invalid([{ loc: ['body', 'payload'], msg: 'must be object', type: 'object_type' }]);
    return [payload];
  }
  if (rows === undefined) throw invalid([{ loc: ['body', 'rows'], msg: 'field required', type: 'missing' }]);
  if (!Array.isArray(rows)) throw invalid([{ loc: ['body', 'rows'], msg: 'must be array', type: 'array_type' }]);
  if (rows.length === 0 || rows.length > MAX_ROWS) {
    throw invalid([{ loc: ['body', 'rows'], msg: `must hold 1 to ${MAX_ROWS} rows`, type: 'too_long' }]);
  }
  const issues = rows.flatMap((row, index): ValidationIssue[] =>
    isRow(row) ? [] : [{ loc: ['body', 'rows', index], msg: 'must be object', type: 'object_type' }],
  );
  if (issues.length > 0) throw invalid(issues);
  return rows as Row[];
}

const invalid = (issues: ValidationIssue[]) => errors.validation(issues);

function isRow(value: unknown): value is Row {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
