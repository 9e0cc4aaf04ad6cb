import type { JsonObject } from './parameters';
import type { MethodDeclaration } from '../providers/declaration';

/** How many rows a call may return: the requested count, or the method's default page. */
export function requestedRowCount(method: MethodDeclaration, values: JsonObject): number {
  const rows = method.rows;
  if (!rows) return 1;
  const asked = rows.countParameter === undefined ? undefined : values[rows.countParameter];
  const count = typeof asked === 'number' && Number.isInteger(asked) && asked > 0 ? asked : rows.defaultCount;
  return Math.min(count, rows.maxCount);
}

/** The most a call with these parameters can cost, in millicredits: what is reserved before it runs. */
export function worstCaseCost(method: MethodDeclaration, values: JsonObject): number {
  const { unit, millicredits } = method.cost;
  return unit === 'record' ? millicredits * requestedRowCount(method, values) : millicredits;
}

export interface DryRunEstimate {
  /** What one call is priced at: the fee (per call), a hit (per hit) or one returned row (per record). */
  readonly wouldCharge: number;
  /** Per-record methods only: the worst case at the requested (or maximum) row count. */
  readonly wouldChargeMax?: number;
}

export function dryRunEstimate(method: MethodDeclaration, values: JsonObject): DryRunEstimate {
  const { unit, millicredits } = method.cost;
  if (unit !== 'record') return { wouldCharge: millicredits };
  return { wouldCharge: millicredits, wouldChargeMax: worstCaseCost(method, values) };
}

/** What the vendor's answer to a call actually used up. */
export interface ProviderUsage {
  /** Rows returned, for per-record methods. */
  readonly rowCount: number;
  /** Whether the call found something, for per-hit methods. */
  readonly hit: boolean;
}

/**
 * The real charge of a finished call, in millicredits. It never exceeds the worst case reserved:
 * a vendor returning more rows than asked is not the client's cost.
 */
export function actualCost(method: MethodDeclaration, values: JsonObject, usage: ProviderUsage): number {
  const { unit, millicredits } = method.cost;
  if (unit === 'call') return millicredits;
  if (unit === 'hit') return usage.hit ? millicredits : 0;
  return millicredits * Math.min(usage.rowCount, requestedRowCount(method, values));
}

/** Millicredits as the exact decimal credits string (1500 → "1.5"). */
export function formatCredits(millicredits: number): string {
  return formatDecimal(millicredits, 3);
}

/**
 * A method's list price in USD as an exact decimal string: credits × the list price in cents per
 * credit, in integer arithmetic (millicredits × cents is in units of 10⁻⁵ dollars).
 */
export function formatUsd(millicredits: number, centsPerCredit: number): string {
  return formatDecimal(millicredits * centsPerCredit, 5);
}

/** An integer count of 10^-scale units as a decimal string without trailing zeros. */
function formatDecimal(units: number, scale: number): string {
  const divisor = 10 ** scale;
  const sign = units < 0 ? '-' : '';
  const whole = Math.floor(Math.abs(units) / divisor);
  const fraction = String(Math.abs(units) % divisor)
    .padStart(scale, '0')
    .replace(/0+$/, '');
  return `${sign}${whole}${fraction ? `.${fraction}` : ''}`;
}
