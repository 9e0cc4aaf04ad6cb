import { stringify, type Options, type Stringifier } from 'csv-stringify';

/**
 * The writer of every CSV the product produces (dataset exports, the billing ledger): RFC 4180
 * quoting by csv-stringify, and OWASP's CSV-injection defence by its `escape_formulas` — a cell or
 * header that starts with `=`, `+`, `-`, `@`, a tab or a carriage return gets a leading `'`, so a
 * spreadsheet shows it as text instead of running it. Negative numbers are left as numbers.
 */
export function csvWriter(options: Options = {}): Stringifier {
  return stringify({ ...options, escape_formulas: true });
}
