import type { PersonRecord } from '@rde/platform';
import { companyWords } from './company-match';

/** A result row: the person, tagged with the step that found it, and the flags the spec names. */
export type ResultRow = PersonRecord & {
  _source: string;
  verification_required?: true;
  verification_reason?: string;
  outside_locations?: true;
  filters_relaxed?: string[];
};

/**
 * The people collected so far, deduplicated: the same person across vendors is the same LinkedIn
 * URL, or else the same normalised name at the same normalised company.
 */
export class PeopleSet {
  private readonly keys = new Set<string>();
  readonly rows: ResultRow[] = [];

  /** Adds the row unless it is someone already collected; true when it was new. */
  add(row: ResultRow): boolean {
    const keys = identityKeys(row);
    if (keys.some((key) => this.keys.has(key))) return false;
    keys.forEach((key) => this.keys.add(key));
    this.rows.push(row);
    return true;
  }

  get size(): number {
    return this.rows.length;
  }
}

function identityKeys(person: PersonRecord): string[] {
  const keys = [`name:${companyWords(person.name).join(' ')}@${companyWords(person.company ?? '').join(' ')}`];
  const url = person.linkedin_url && linkedinKey(person.linkedin_url);
  if (url) keys.unshift(`url:${url}`);
  return keys;
}

/** `https://www.linkedin.com/in/Jane-Doe/?x=1` → `linkedin.com/in/jane-doe`. */
function linkedinKey(url: string): string {
  return url
    .toLowerCase()
    .replace(/^[a-z]+:\/\//, '')
    .replace(/^[a-z]{2,3}\.|^www\./, '')
    .split(/[?#]/)[0]
    .replace(/\/+$/, '');
}

/** Whether a row's free-text location names any requested location (case-insensitive, word-bounded). */
export function insideLocations(location: string | undefined, wanted: readonly string[]): boolean {
  if (!location) return false;
  const text = ` ${location.toLowerCase().replace(/[^a-z0-9]+/g, ' ')} `;
  return wanted.some((place) =>
    text.includes(
      ` ${place
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, ' ')
        .trim()} `,
    ),
  );
}
