import { searchPeople, type PeopleQuery } from '../src/domain/search';
import { Universe } from '../src/domain/universe';

// Small enough to check every search against a scan of everyone.
const universe = new Universe({ seed: 'search-test', people: 20_000, companies: 1_000 });

/** Everyone who matches, by checking each person's attributes one by one. */
function scan(query: PeopleQuery): number[] {
  const matches: number[] = [];
  for (let id = 0; id < universe.people; id++) {
    const title = universe.titleOf(id).toLowerCase().split(' ');
    if (query.companies && !query.companies.includes(universe.companyOf(id))) continue;
    if (
      query.titles &&
      !query.titles.some((t) =>
        t
          .toLowerCase()
          .split(' ')
          .every((w) => title.includes(w)),
      )
    )
      continue;
    if (query.cities && !query.cities.includes(universe.cityOf(id).name)) continue;
    if (query.skills && !universe.skillsOf(id).some((s) => query.skills!.includes(s))) continue;
    if (query.seniorities && !query.seniorities.includes(universe.seniorityOf(id))) continue;
    if (query.departments && !query.departments.includes(universe.departmentOf(id).id)) continue;
    matches.push(id);
  }
  return matches;
}

const queries: PeopleQuery[] = [
  { companies: [3, 40, 900] },
  { titles: ['software engineer'] },
  { titles: ['director'], cities: ['Berlin', 'London'] },
  { skills: ['Kubernetes'], seniorities: ['senior'] },
  { departments: ['people'], cities: ['San Francisco'] },
  { companies: [14], cities: ['San Francisco'] },
];

describe('people search over derived indexes', () => {
  it.each(queries.map((q) => [JSON.stringify(q), q]))('finds exactly whom a full scan finds: %s', (_, query) => {
    const found = searchPeople(universe, query, { offset: 0, limit: universe.people, budget: Infinity });
    expect(found.exhausted).toBe(true);
    expect(found.total).toBe(found.ids.length);
    expect([...found.ids].sort((a, b) => a - b)).toEqual(scan(query));
    for (const id of found.ids.slice(0, 20)) {
      const person = universe.person(id);
      if (query.cities) expect(query.cities).toContain(person.city.name);
      if (query.companies) expect(query.companies).toContain(person.company.index);
      if (query.seniorities) expect(query.seniorities).toContain(person.seniority);
    }
  });

  it('pages without overlap and in a stable order', () => {
    const query = { titles: ['engineer'] };
    const first = searchPeople(universe, query, { offset: 0, limit: 25 });
    const second = searchPeople(universe, query, { offset: 25, limit: 25 });
    expect(first.ids).toHaveLength(25);
    expect(second.ids.filter((id) => first.ids.includes(id))).toEqual([]);
    expect(searchPeople(universe, query, { offset: 0, limit: 50 }).ids).toEqual([...first.ids, ...second.ids]);
  });

  it('matches keywords against title, skills, employer and city', () => {
    const found = searchPeople(universe, { keywords: ['terraform', 'senior'] }, { offset: 0, limit: 20 });
    expect(found.ids.length).toBeGreaterThan(0);
    for (const id of found.ids) {
      const person = universe.person(id);
      expect(person.skills).toContain('Terraform');
      expect(person.title).toMatch(/Senior/);
    }
    expect(searchPeople(universe, { keywords: ['cobol'] }, { offset: 0, limit: 20 }).ids).toEqual([]);
  });

  it('keeps only the people a vendor knows, and stops at its budget', () => {
    const known = (id: number) => id % 2 === 0;
    const found = searchPeople(universe, { titles: ['engineer'] }, { offset: 0, limit: 30, include: known });
    expect(found.ids.every(known)).toBe(true);
    const capped = searchPeople(universe, { keywords: ['cfo'] }, { offset: 0, limit: 1_000, budget: 500 });
    expect(capped.exhausted).toBe(false);
  });
});
