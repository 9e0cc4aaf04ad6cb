import type { RunCharge } from '../../store/runs';
import type { StepRecord } from '../../domain/search/answer';
import type { SearchStep } from '../../domain/search/capabilities';
import type { FilterKey } from '../../domain/search/filters';
import type { PeopleSet, ResultRow } from '../../domain/search/people';
import type { SearchRequest } from '../../domain/search/request';
import type { OpenRun } from './billed-run';

/** The walk in progress: rows, steps, charges, money left in the hold. */
export interface Walk {
  readonly run: OpenRun;
  readonly request: SearchRequest;
  readonly people: PeopleSet;
  readonly steps: StepRecord[];
  readonly charges: RunCharge[];
  /** Steps that answered `unsupported_fields`, for the relaxed retry. */
  readonly unsupported: { step: SearchStep; fields: FilterKey[] }[];
  /** Millicredits spent by finished steps plus the worst case of steps still running. */
  committed: number;
  /** Whether the provider that can express every capability-gated filter answered. */
  aiDatabaseAnswered: boolean;
}

/** Whether a `single` walk has its `limit` of people. */
export function filled(walk: Walk): boolean {
  return walk.request.coverage === 'single' && walk.people.size >= walk.request.limit;
}

/** Adds a step's rows to the people collected, deduplicated; `single` stops at `limit`. */
export function merge(walk: Walk, record: StepRecord, rows: readonly ResultRow[]): void {
  for (const row of rows) {
    if (filled(walk)) return;
    if (walk.people.add(row)) record.counts.new += 1;
  }
}
