import { httpError, type Clock } from '@rde/platform';
import { qualifyCandidates, monthOfInstant, type QualifyOutcome } from '../../domain/qualify';

export interface QualifyInput {
  readonly jobSpec: string;
  /** The body's `candidates`, still unchecked. */
  readonly candidates: unknown;
  /** The body's `min_score`, still unchecked; undefined when absent. */
  readonly minScore: unknown;
  readonly allowThinProfiles: boolean;
}

export interface CheckedQualify {
  readonly rows: Record<string, unknown>[];
  readonly minScore: number | undefined;
  readonly outcome: QualifyOutcome;
}

/** POST /qualify: the body checks of rules 3 and 5, then scoring (free, no vendor call). */
export class Qualifier {
  constructor(private readonly clock: Clock) {}

  /** Rules 2 and 3: the ranked cells, min_score applied. */
  qualify(input: QualifyInput): QualifyOutcome {
    const { minScore, outcome } = this.check(input);
    if (minScore === undefined) return outcome;
    return { ...outcome, ranked: outcome.ranked.filter((ranked) => ranked.row.qualify.score >= minScore) };
  }

  /** Every body check, then the scores (cheap: the thin-profile rule needs each row's basis anyway). */
  check(input: QualifyInput): CheckedQualify {
    const rows = checkCandidates(input.candidates);
    const minScore = checkMinScore(input.minScore);
    const outcome = qualifyCandidates(input.jobSpec, rows, monthOfInstant(this.clock.now()));
    if (!input.allowThinProfiles && rows.length > 0 && outcome.thinProfiles.length === rows.length) {
      throw httpError(422, {
        detail: {
          error: 'no_work_history',
          message:
            'every candidate is title-only (no dated history and no pasted resume); enrich profiles first or send allow_thin_profiles: true',
        },
      });
    }
    return { rows, minScore, outcome };
  }
}

function checkCandidates(candidates: unknown): Record<string, unknown>[] {
  const list = Array.isArray(candidates) ? (candidates as unknown[]) : [];
  const rows = list
    .map((candidate, position) => ({ candidate, position }))
    .filter(({ candidate }) => candidate === null || typeof candidate !== 'object' || Array.isArray(candidate))
    .map(({ position }) => position);
  if (!Array.isArray(candidates) || rows.length) {
    throw httpError(422, {
      detail: { error: 'bad_candidates', rows, message: 'every candidate must be an object (a search or profile row)' },
    });
  }
  return list as Record<string, unknown>[];
}

function checkMinScore(minScore: unknown): number | undefined {
  if (minScore === undefined) return undefined;
  if (typeof minScore !== 'number' || !Number.isFinite(minScore)) {
    throw httpError(422, { detail: { error: 'bad_min_score', message: 'min_score must be a number from 0 to 10' } });
  }
  return minScore;
}
