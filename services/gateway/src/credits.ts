import type { common } from '@rde/proto';

/** Public JSON shows credits as numbers; the wire carries integer millicredits. Absent stays absent. */
export function credits(amount: common.Credits | undefined): number | undefined {
  return amount === undefined ? undefined : amount.millicredits / 1000;
}
