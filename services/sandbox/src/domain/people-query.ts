import { hasAllWords, normalizeName, words } from './text';
import { titleFor } from './person-facts';
import type { Universe } from './universe';
import { DEPARTMENTS, ROLES, SENIORITIES, type Seniority } from './vocabulary';

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

/** Title words of every (role, level), computed once: title matching is then a table look-up. */
const TITLE_WORDS = ROLES.map((role) => SENIORITIES.map((level) => words(titleFor(role, level))));

/** One predicate for the whole query, cheapest checks first. */
export function compileMatcher(universe: Universe, query: PeopleQuery): (id: number) => boolean {
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

/** For each (role, level), whether its title matches one of the phrases. */
export function titleTable(titles: readonly string[]): boolean[][] {
  const phrases = titles.map(words).filter((phrase) => phrase.length > 0);
  return TITLE_WORDS.map((row) => row.map((titleWords) => phrases.some((phrase) => hasAllWords(titleWords, phrase))));
}
