import { candidates, smallestSource } from './candidate-sources';
import { compileMatcher, type PeopleQuery } from './people-query';
import type { Universe } from './universe';

/** The query is part of this module's surface: vendors build one to search. */
export type { PeopleQuery } from './people-query';

export interface SearchOptions {
  readonly offset: number;
  readonly limit: number;
  /** Whether the searching vendor's database holds this person at all. */
  readonly include?: (id: number) => boolean;
  /** Candidates examined at most; past it the search returns what it found. */
  readonly budget?: number;
}

export interface SearchResult {
  readonly ids: number[];
  /** Exact when `exhausted`, otherwise extrapolated from the share of candidates that matched. */
  readonly total: number;
  readonly exhausted: boolean;
}

const DEFAULT_SEARCH_BUDGET = 60_000;

/**
 * Walks the smallest derived index among the query's filters and checks every other filter on
 * each candidate, computing only the attributes it needs.
 */
export function searchPeople(universe: Universe, query: PeopleQuery, options: SearchOptions): SearchResult {
  const matches = compileMatcher(universe, query);
  const source = smallestSource(universe, query);
  const budget = options.budget ?? DEFAULT_SEARCH_BUDGET;
  const wanted = options.offset + options.limit;
  const seen = new Set<number>();
  const ids: number[] = [];
  let matched = 0;
  let scanned = 0;
  let exhausted = true;
  for (const id of candidates(universe, source)) {
    if (matched >= wanted || scanned >= budget) {
      exhausted = false;
      break;
    }
    scanned++;
    if ((options.include && !options.include(id)) || !matches(id) || seen.has(id)) continue;
    seen.add(id);
    if (matched >= options.offset) ids.push(id);
    matched++;
  }
  const total = exhausted ? matched : Math.max(matched, Math.round((matched / Math.max(scanned, 1)) * source.estimate));
  return { ids, total, exhausted };
}
