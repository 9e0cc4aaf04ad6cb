import { readCandidate, type Basis } from './candidate';
import { parseJobSpec } from './job-spec';
import { scoreCandidate, type QualifyCell } from './rubric';

export type { Basis } from './candidate';
export type { QualifyCell } from './rubric';
export { RUBRIC } from './rubric';

export interface RankedCandidate {
  /** Position in the request. */
  readonly position: number;
  readonly row: Record<string, unknown> & { qualify: QualifyCell };
}

export interface QualifyOutcome {
  readonly ranked: RankedCandidate[];
  readonly scoredOn: Record<Basis, number>;
  readonly thinProfiles: number[];
}

/**
 * Scores every candidate and ranks them by score descending (ties keep request order). Pure: the
 * same spec, rows and month give the same answer.
 */
export function qualifyCandidates(
  jobSpec: string,
  rows: readonly Record<string, unknown>[],
  nowMonth: number,
): QualifyOutcome {
  const spec = parseJobSpec(jobSpec);
  const scoredOn: Record<Basis, number> = { work_history: 0, resume_text: 0, title_only: 0 };
  const thinProfiles: number[] = [];
  const scored = rows.map((row, position) => {
    const qualify = scoreCandidate(spec, readCandidate(row), nowMonth);
    scoredOn[qualify.basis] += 1;
    if (qualify.basis === 'title_only') thinProfiles.push(position);
    return { position, row: { ...row, qualify } };
  });
  const ranked = scored.sort((a, b) => b.row.qualify.score - a.row.qualify.score || a.position - b.position);
  return { ranked, scoredOn, thinProfiles };
}

/** Whether a row carries anything beyond a title (a history or a pasted resume). */
export function hasHistory(row: Record<string, unknown>): boolean {
  return readCandidate(row).basis !== 'title_only';
}

/** Months since year 0 of a UTC instant: the rubric's "now". */
export function monthOfInstant(ms: number): number {
  const date = new Date(ms);
  return date.getUTCFullYear() * 12 + date.getUTCMonth();
}
