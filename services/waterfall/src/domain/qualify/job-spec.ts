import { isLevelWord, keywords, seniorityOf, words } from './text';

/** What the rubric reads from a free-text job spec. */
export interface JobSpec {
  /** Words of the role line (the spec's first line or clause), level words removed. */
  readonly titleWords: readonly string[];
  /** Every meaningful word of the spec (skills, tools, domain). */
  readonly keywords: readonly string[];
  /** The level asked for, on the ladder of `seniorityOf`; null when the spec names none. */
  readonly level: number | null;
  /** "5+ years" and the like; null when the spec names no figure. */
  readonly minYears: number | null;
}

/** Years asked when the spec names none: enough to tell a first job from an established one. */
export const DEFAULT_MIN_YEARS = 3;

export function parseJobSpec(text: string): JobSpec {
  const roleLine = text.split(/[\n,;:(]|\bwith\b| - | – /i)[0] ?? text;
  const years = /(\d{1,2})\s*\+?\s*(?:years|yrs|year)/i.exec(text);
  return {
    titleWords: keywords(roleLine).filter((word) => !isLevelWord(word)),
    keywords: keywords(text).filter((word) => !isLevelWord(word)),
    level: seniorityOf(words(roleLine).join(' ')),
    minYears: years ? Number(years[1]) : null,
  };
}
