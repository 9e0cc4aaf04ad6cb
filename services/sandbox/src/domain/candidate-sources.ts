import { HARD_CASE_COMPANIES } from './hard-cases';
import type { Partition } from './partition';
import { titleTable, type PeopleQuery } from './people-query';
import { words } from './text';
import type { Universe } from './universe';
import { ALL_SKILLS, CITIES, DEPARTMENTS, ROLES, SENIORITIES } from './vocabulary';

interface Bucket {
  readonly partition: Partition;
  readonly value: number;
}

/** Where the candidates come from: a union of partition values (a derived index), or everyone. */
export interface CandidateSource {
  readonly estimate: number;
  readonly buckets: readonly Bucket[] | 'everyone';
  /** People placed by an override rather than by the partition (pinned hard-case cities). */
  readonly extra: readonly number[];
}

const SKILL_INDEX = new Map(ALL_SKILLS.map((skill, i) => [skill.toLowerCase(), i]));

/** Every candidate the source yields (an id may repeat across values). */
export function* candidates(universe: Universe, source: CandidateSource): Generator<number> {
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

/** The derived index with the fewest candidates among the query's filters, or everyone. */
export function smallestSource(universe: Universe, query: PeopleQuery): CandidateSource {
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
