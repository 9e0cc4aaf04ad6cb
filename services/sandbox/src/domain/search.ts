import { HARD_CASE_COMPANIES } from './hard-cases';
import type { Partition } from './partition';
import { hasAllWords, normalizeName, words } from './text';
import { titleFor } from './person-facts';
import type { Universe } from './universe';
import { ALL_SKILLS, CITIES, DEPARTMENTS, ROLES, SENIORITIES, type Seniority } from './vocabulary';

/** A people search in the universe's own terms; each vendor translates its wire filters to this. */
export interface PeopleQuery {
  readonly companies?: readonly number[];
  /** Any of these phrases; a phrase matches a title holding all of its words. */
  readonly titles?: readonly string[];
  /** City names, any of. */
  readonly cities?: readonly string[];
  /** Any of these skills. */
  readonly skills?: readonly string[];
  readonly seniorities?: readonly Seniority[];
  readonly departments?: readonly string[];
  /** Every one of these words appears in the title, skills, employer, city or department. */
  readonly keywords?: readonly string[];
  readonly minYearsExperience?: number;
  readonly tenureMonths?: { readonly min?: number; readonly max?: number };
  readonly sizeBands?: readonly string[];
  readonly industries?: readonly string[];
}

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

interface Bucket {
  readonly partition: Partition;
  readonly value: number;
}

/** Where the candidates come from: a union of partition values (a derived index), or everyone. */
interface CandidateSource {
  readonly estimate: number;
  readonly buckets: readonly Bucket[] | 'everyone';
  /** People placed by an override rather than by the partition (pinned hard-case cities). */
  readonly extra: readonly number[];
}

/** Title words of every (role, level), computed once: title matching is then a table look-up. */
const TITLE_WORDS = ROLES.map((role) => SENIORITIES.map((level) => words(titleFor(role, level))));
const SKILL_INDEX = new Map(ALL_SKILLS.map((skill, i) => [skill.toLowerCase(), i]));

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

function* candidates(universe: Universe, source: CandidateSource): Generator<number> {
  yield* source.extra;
  if (source.buckets === 'everyone') {
    for (let id = 0; id < universe.people; id++) yield id;
    return;
  }
  // Round robin, so the first page of a multi-value filter is not all from its first value.
  for (let k = 0; ; k++) {
    let more = false;
    for (const { partition, value } of source.buckets) {
      if (k < partition.countOf(value)) {
        more = true;
        yield partition.member(value, k);
      }
    }
    if (!more) return;
  }
}

function smallestSource(universe: Universe, query: PeopleQuery): CandidateSource {
  const sources: CandidateSource[] = [];
  if (query.companies)
    sources.push(
      companySource(
        universe,
        query.companies.filter((c) => c >= 0 && c < universe.companies.count),
      ),
    );
  if (query.titles) sources.push(titleSource(universe, query.titles));
  if (query.cities) sources.push(citySource(universe, query.cities));
  if (query.skills) sources.push(skillSource(universe, query.skills));
  if (query.seniorities)
    sources.push(
      sourceOf(
        bucketsOf(
          universe.levels,
          indexesWhere(SENIORITIES, (s) => query.seniorities!.includes(s)),
        ),
      ),
    );
  if (query.departments) sources.push(departmentSource(universe, query.departments));
  for (const word of (query.keywords ?? []).flatMap(words)) sources.push(keywordSource(universe, word));
  if (sources.length === 0) return { estimate: universe.people, buckets: 'everyone', extra: [] };
  return sources.reduce((best, source) => (source.estimate < best.estimate ? source : best));
}

function companySource(universe: Universe, companies: readonly number[]): CandidateSource {
  return sourceOf(bucketsOf(universe.employment, companies));
}

/** Titles are (role, level) pairs: walk whichever of the two matching unions is smaller. */
function titleSource(universe: Universe, titles: readonly string[]): CandidateSource {
  const table = titleTable(titles);
  const byRole = sourceOf(
    bucketsOf(
      universe.roles,
      indexesWhere(ROLES, (_, r) => table[r]!.some(Boolean)),
    ),
  );
  const byLevel = sourceOf(
    bucketsOf(
      universe.levels,
      indexesWhere(SENIORITIES, (_, s) => table.some((row) => row[s])),
    ),
  );
  return byRole.estimate <= byLevel.estimate ? byRole : byLevel;
}

function citySource(universe: Universe, names: readonly string[]): CandidateSource {
  const wanted = new Set(names);
  return sourceOf(
    bucketsOf(
      universe.cities,
      indexesWhere(CITIES, (city) => wanted.has(city.name)),
    ),
    pinnedStaff(universe, wanted),
  );
}

/** A skill is one of the role's (some of them) or the side skill. */
function skillSource(universe: Universe, skills: readonly string[]): CandidateSource {
  const wanted = skills.map((s) => s.toLowerCase());
  const sides = wanted.flatMap((s) => (SKILL_INDEX.has(s) ? [SKILL_INDEX.get(s)!] : []));
  const withSkill = indexesWhere(ROLES, (role) => role.skills.some((s) => wanted.includes(s.toLowerCase())));
  return sourceOf([...bucketsOf(universe.roles, withSkill), ...bucketsOf(universe.sideSkills, sides)]);
}

function departmentSource(universe: Universe, departments: readonly string[]): CandidateSource {
  return sourceOf(
    bucketsOf(
      universe.roles,
      indexesWhere(ROLES, (role) => departments.includes(role.department)),
    ),
  );
}

/** Everyone a keyword can match: by a title, skill, city, department or employer holding the word. */
function keywordSource(universe: Universe, word: string): CandidateSource {
  const hasWord = (text: string) => words(text).includes(word);
  const companies = HARD_CASE_COMPANIES.flatMap((company, i) => (hasWord(company.name) ? [i] : []));
  const generated = universe.companies.indexByName(word);
  if (generated !== undefined) companies.push(generated);
  const parts = [
    titleSource(universe, [word]),
    skillSource(universe, ALL_SKILLS.filter(hasWord)),
    citySource(
      universe,
      CITIES.filter((city) => hasWord(city.name)).map((city) => city.name),
    ),
    departmentSource(
      universe,
      DEPARTMENTS.filter((d) => hasWord(d.noun)).map((d) => d.id),
    ),
    companySource(universe, companies),
  ];
  return sourceOf(
    parts.flatMap((part) => part.buckets as Bucket[]),
    parts.flatMap((part) => part.extra),
  );
}

function bucketsOf(partition: Partition, values: Iterable<number>): Bucket[] {
  return [...new Set(values)].map((value) => ({ partition, value }));
}

function sourceOf(buckets: Bucket[], extra: readonly number[] = []): CandidateSource {
  return { estimate: buckets.reduce((sum, b) => sum + b.partition.countOf(b.value), extra.length), buckets, extra };
}

function indexesWhere<T>(items: readonly T[], predicate: (item: T, index: number) => boolean): number[] {
  return items.flatMap((item, i) => (predicate(item, i) ? [i] : []));
}

/** Staff of hard-case companies pinned to one of the wanted cities: the city partition does not place them. */
function pinnedStaff(universe: Universe, cities: ReadonlySet<string>): number[] {
  return HARD_CASE_COMPANIES.flatMap((company, index) => {
    const pinned = company.traits?.pinnedCities;
    return pinned?.some((city) => cities.has(city)) ? universe.staffOf(index) : [];
  });
}

function titleTable(titles: readonly string[]): boolean[][] {
  const phrases = titles.map(words).filter((phrase) => phrase.length > 0);
  return TITLE_WORDS.map((row) => row.map((titleWords) => phrases.some((phrase) => hasAllWords(titleWords, phrase))));
}

/** One predicate for the whole query, cheapest checks first. */
function compileMatcher(universe: Universe, query: PeopleQuery): (id: number) => boolean {
  const checks: ((id: number) => boolean)[] = [];
  if (query.companies) {
    const companies = new Set(query.companies);
    checks.push((id) => companies.has(universe.companyOf(id)));
  }
  if (query.seniorities) {
    const levels = new Set(query.seniorities);
    checks.push((id) => levels.has(universe.seniorityOf(id)));
  }
  if (query.titles) {
    const table = titleTable(query.titles);
    checks.push((id) => table[universe.roles.valueOf(id)]![universe.levels.valueOf(id)]!);
  }
  if (query.departments) {
    const departments = new Set(query.departments);
    checks.push((id) => departments.has(universe.roleOf(id).department));
  }
  if (query.cities) {
    const cities = new Set(query.cities);
    checks.push((id) => cities.has(universe.cityOf(id).name));
  }
  if (query.skills) {
    const skills = new Set(query.skills.map((s) => s.toLowerCase()));
    checks.push((id) => universe.skillsOf(id).some((s) => skills.has(s.toLowerCase())));
  }
  if (query.minYearsExperience !== undefined || query.tenureMonths) {
    const { minYearsExperience = 0, tenureMonths: { min = 0, max = Infinity } = {} } = query;
    checks.push((id) => {
      const traits = universe.traitsOf(id);
      if (traits.undatedExperience || traits.titleOnly) return false;
      const career = universe.careerOf(id);
      return (
        Math.floor(career.totalMonths / 12) >= minYearsExperience &&
        career.tenureMonths >= min &&
        career.tenureMonths <= max
      );
    });
  }
  if (query.keywords) {
    const keywords = query.keywords.flatMap(words);
    checks.push((id) => hasAllWords(searchableWords(universe, id), keywords));
  }
  if (query.sizeBands || query.industries) {
    const bands = query.sizeBands && new Set(query.sizeBands);
    const industries = query.industries && new Set(query.industries.map(normalizeName));
    checks.push((id) => {
      const company = universe.companies.get(universe.companyOf(id));
      return (
        (!bands || bands.has(company.sizeBand)) && (!industries || industries.has(normalizeName(company.industry)))
      );
    });
  }
  return (id) => checks.every((check) => check(id));
}

function searchableWords(universe: Universe, id: number): string[] {
  const department = DEPARTMENTS.find((d) => d.id === universe.roleOf(id).department)!;
  return words(
    [
      universe.titleOf(id),
      ...universe.skillsOf(id),
      universe.companies.get(universe.companyOf(id)).name,
      universe.cityOf(id).name,
      department.noun,
    ].join(' '),
  );
}
