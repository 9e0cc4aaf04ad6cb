import type { common } from '@rde/proto';

/** Public JSON shows credits as numbers; the wire carries integer millicredits (as the REST routes do). */
export function credits(amount: common.Credits | undefined): number | undefined {
  return amount === undefined ? undefined : amount.millicredits / 1000;
}

export function jsonBytes(value: unknown): Buffer {
  return value === undefined ? Buffer.alloc(0) : Buffer.from(JSON.stringify(value));
}

export function parseJson(bytes: Uint8Array, empty: unknown = null): unknown {
  return bytes.length === 0 ? empty : JSON.parse(Buffer.from(bytes).toString('utf8'));
}

/** Drops absent fields, so `_meta` carries only what applies. */
export function present(fields: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
}
