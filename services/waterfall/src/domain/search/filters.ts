import { errors, type ValidationIssue } from '@rde/platform';

/** The canonical search filters, in the order the 400 lists them. */
export const FILTER_KEYS = [
  'titles',
  'locations',
  'skills',
  'keywords',
  'seniority',
  'company_names',
  'company_domains',
  'company_linkedin_urls',
  'min_experience_years',
  'months_in_role',
  'departments',
  'company_sizes',
  'industries',
] as const;

export type FilterKey = (typeof FILTER_KEYS)[number];

/** The filters that name a company: the anchor of the public-web steps and of company verification. */
export const COMPANY_KEYS: readonly FilterKey[] = ['company_names', 'company_domains', 'company_linkedin_urls'];

export const SENIORITY_LEVELS = ['entry', 'senior', 'manager', 'director', 'vp', 'c_suite'] as const;

/** Keys of the request that are never filters (spec "Search", body fields). */
export const ENVELOPE_KEYS = [
  'query',
  'providers',
  'dry_run',
  'preview',
  'session_id',
  'workflow_run_id',
  'coverage',
  'limit',
] as const;

/** What a user would type for a filter, bound to its canonical key. */
const SYNONYMS: Readonly<Record<string, FilterKey>> = {
  title: 'titles',
  job_title: 'titles',
  job_titles: 'titles',
  location: 'locations',
  skill: 'skills',
  keyword: 'keywords',
  company: 'company_names',
  companies: 'company_names',
  company_name: 'company_names',
  domain: 'company_domains',
  domains: 'company_domains',
  company_domain: 'company_domains',
  company_linkedin_url: 'company_linkedin_urls',
  seniorities: 'seniority',
  department: 'departments',
  years_experience: 'min_experience_years',
  tenure: 'months_in_role',
  company_size: 'company_sizes',
  industry: 'industries',
};

const SENIORITY_SYNONYMS: Readonly<Record<string, (typeof SENIORITY_LEVELS)[number]>> = {
  junior: 'entry',
  'c-level': 'c_suite',
  c_level: 'c_suite',
  'c-suite': 'c_suite',
  cxo: 'c_suite',
  executive: 'c_suite',
  'vice president': 'vp',
};

/** A bound filter value: a list of texts, a text, a number of years, or a tenure window. */
export type FilterValue = string[] | string | number | { gte?: number; lte?: number };
export type Filters = Partial<Record<FilterKey, FilterValue>>;

export interface BoundQuery {
  readonly filters: Filters;
  /** Keys that bound nothing (flat or inside `query`), for `_meta.ignored_query_keys`. */
  readonly ignored: string[];
  /** `query.limit`, when the body gave it there. */
  readonly limit?: unknown;
}

const MAX_ITEMS = 100;
const MAX_TEXT = 500;

/**
 * Rule 1–3: filters nested under `query` or flat; an explicit `query` wins per field; synonyms bind
 * to canonical keys; what binds nothing is ignored and listed. No binding at all is the spec's 400,
 * and a wrongly typed value a 422 naming it.
 */
export function bindFilters(body: Record<string, unknown>): BoundQuery {
  const query = isPlainObject(body.query) ? body.query : {};
  const envelope = new Set<string>(ENVELOPE_KEYS);
  const flat = Object.entries(body).filter(([key]) => !envelope.has(key));
  const nested = Object.entries(query).filter(([key]) => key !== 'limit');
  const filters: Filters = {};
  const ignored: string[] = [];
  const issues: ValidationIssue[] = [];
  // Flat first, then nested: a field named in `query` overwrites the same field given flat.
  for (const [where, entries] of [
    ['body', flat],
    ['query', nested],
  ] as const) {
    for (const [key, raw] of entries) {
      const canonical = canonicalKey(key);
      if (!canonical) {
        ignored.push(where === 'query' ? `query.${key}` : key);
        continue;
      }
      const value = normalised(canonical, raw, [where === 'query' ? 'query' : 'body', key], issues);
      if (value !== undefined) filters[canonical] = value;
    }
  }
  if (issues.length > 0) throw errors.validation(issues);
  if (Object.keys(filters).length === 0) {
    throw errors.badRequest({
      error: 'no_filter_bound',
      detail:
        `No key of this search is a filter` +
        (ignored.length > 0 ? `: could not place ${ignored.join(', ')}` : '') +
        `. Filters are: ${FILTER_KEYS.join(', ')}.`,
      unplaced: ignored,
      filters: [...FILTER_KEYS],
    });
  }
  return { filters, ignored, ...(query.limit !== undefined && { limit: query.limit }) };
}

function canonicalKey(key: string): FilterKey | undefined {
  const lower = key.toLowerCase();
  return (FILTER_KEYS as readonly string[]).includes(lower) ? (lower as FilterKey) : SYNONYMS[lower];
}

function normalised(key: FilterKey, raw: unknown, loc: string[], issues: ValidationIssue[]): FilterValue | undefined {
  const fail = (msg: string, type: string) => {
    issues.push({ loc, msg, type });
    return undefined;
  };
  switch (key) {
    case 'keywords': {
      const list = textList(raw);
      return list ? list.join(' ') : fail('keywords must be a text or a list of texts', 'type_error');
    }
    case 'min_experience_years':
      return Number.isInteger(raw) && (raw as number) >= 0 && (raw as number) <= 60
        ? (raw as number)
        : fail('min_experience_years must be an integer from 0 to 60', 'value_error');
    case 'months_in_role':
      return tenureWindow(raw) ?? fail('months_in_role must be {gte?, lte?} of whole months', 'value_error');
    case 'seniority': {
      const levels = textList(raw)?.map(seniorityLevel);
      if (!levels || levels.some((level) => level === undefined)) {
        return fail(`seniority must be one or more of ${SENIORITY_LEVELS.join(', ')}`, 'value_error');
      }
      return [...new Set(levels as string[])];
    }
    default: {
      const list = textList(raw);
      return list ?? fail(`${key} must be a non-empty text or a list of 1 to ${MAX_ITEMS} texts`, 'type_error');
    }
  }
}

/** A text or a list of texts, trimmed, none empty, at most MAX_ITEMS; undefined when it is not one. */
function textList(raw: unknown): string[] | undefined {
  const items = typeof raw === 'string' ? [raw] : raw;
  if (!Array.isArray(items) || items.length === 0 || items.length > MAX_ITEMS) return undefined;
  const texts = items.map((item) => (typeof item === 'string' ? item.trim() : ''));
  return texts.every((item) => item.length > 0 && item.length <= MAX_TEXT) ? texts : undefined;
}

function seniorityLevel(text: string): string | undefined {
  const lower = text.toLowerCase().replace(/\s+/g, ' ');
  if ((SENIORITY_LEVELS as readonly string[]).includes(lower)) return lower;
  return SENIORITY_SYNONYMS[lower];
}

function tenureWindow(raw: unknown): { gte?: number; lte?: number } | undefined {
  if (!isPlainObject(raw)) return undefined;
  const keys = Object.keys(raw);
  if (keys.length === 0 || keys.some((key) => key !== 'gte' && key !== 'lte')) return undefined;
  const valid = keys.every((key) => Number.isInteger(raw[key]) && (raw[key] as number) >= 0);
  return valid ? (raw as { gte?: number; lte?: number }) : undefined;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A filter's values as a list (a text is one item). */
export function listOf(value: FilterValue | undefined): string[] {
  if (value === undefined) return [];
  if (Array.isArray(value)) return value;
  return typeof value === 'string' ? [value] : [];
}
