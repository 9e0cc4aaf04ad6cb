import { errors, type ValidationIssue } from '@rde/platform';

/** One row of a dataset: any JSON object. */
export type Row = Record<string, unknown>;

/** How many rows a create response shows. */
export const SAMPLE_SIZE = 5;

/**
 * Reads `rows_json`: a JSON array of objects. Anything else is the caller's mistake, reported per
 * position in the same 422 shape the gateway gives for a body that fails its schema.
 */
export function parseRows(rowsJson: Uint8Array): Row[] {
  const text = Buffer.from(rowsJson).toString('utf8');
  if (text.trim() === '') throw errors.validation([{ loc: ['body', 'rows'], msg: 'field required', type: 'missing' }]);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw errors.validation([{ loc: ['body', 'rows'], msg: 'must be valid JSON', type: 'json_invalid' }]);
  }
  if (!Array.isArray(parsed))
    throw errors.validation([{ loc: ['body', 'rows'], msg: 'must be array', type: 'array_type' }]);
  const issues = parsed.flatMap((row, index): ValidationIssue[] =>
    isRow(row) ? [] : [{ loc: ['body', 'rows', index], msg: 'must be object', type: 'object_type' }],
  );
  if (issues.length > 0) throw errors.validation(issues);
  return parsed as Row[];
}

/** One row's JSON: an object, else a 400. */
export function parseRow(rowJson: Uint8Array): Row {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(rowJson).toString('utf8'));
  } catch {
    parsed = undefined;
  }
  if (!isRow(parsed)) throw errors.badRequest({ detail: 'a row must be a JSON object' });
  return parsed;
}

/** Every key of every row, each once, in the order first seen: the dataset's columns. */
export function columnsOf(rows: Iterable<Row>): string[] {
  const columns = new Set<string>();
  for (const row of rows) for (const key of Object.keys(row)) columns.add(key);
  return [...columns];
}

function isRow(value: unknown): value is Row {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
