import { HARD_CASE_COMPANIES, HARD_CASE_STAFF } from '../src/domain/hard-cases';
import { AS_OF_MONTH, monthString } from '../src/domain/people';
import { DEFAULT_UNIVERSE, Universe } from '../src/domain/universe';

const universe = new Universe({ seed: 'universe-test', ...DEFAULT_UNIVERSE });
const sample = [0, 1, 2, 17, 4_242, 99_999, 500_000, 999_999];

describe('the universe', () => {
  it('holds a million people at fifty thousand companies', () => {
    expect(universe.people).toBe(1_000_000);
    expect(universe.companies.count).toBe(50_000);
    let staff = 0;
    for (let c = 0; c < universe.companies.count; c++) staff += universe.employment.countOf(c);
    expect(staff).toBe(universe.people);
  });

  it('gives the same person for the same id and seed, and another one under another seed', () => {
    const again = new Universe({ seed: 'universe-test', ...DEFAULT_UNIVERSE });
    const other = new Universe({ seed: 'another-seed', ...DEFAULT_UNIVERSE });
    for (const id of sample) expect(again.person(id)).toEqual(universe.person(id));
    expect(sample.filter((id) => other.person(id).fullName === universe.person(id).fullName).length).toBeLessThan(3);
  });

  it('derives company staff as ids that map back to the company, with names unique inside it', () => {
    for (const company of [0, 8, 1_234, 49_999]) {
      const staff = universe.staffOf(company);
      expect(staff).toHaveLength(universe.companies.get(company).staff);
      expect(staff.every((id) => universe.companyOf(id) === company)).toBe(true);
      const names = staff.map((id) => universe.person(id).fullName);
      expect(new Set(names).size).toBe(names.length);
    }
  });

  it('finds an employee by name at their company, and nobody under a name that is not there', () => {
    for (const id of sample) {
      const person = universe.person(id);
      expect(universe.findEmployee(person.company.index, person.firstName, person.lastName)).toBe(id);
      expect(universe.findEmployee(person.company.index, 'Zebedee', person.lastName)).toBeUndefined();
    }
  });

  it('resolves a LinkedIn URL only to its own person', () => {
    for (const id of sample) {
      const url = universe.person(id).linkedinUrl;
      expect(universe.personByLinkedInUrl(url)).toBe(id);
      expect(universe.personByLinkedInUrl(url.replace('https://www.', 'http://') + '/')).toBe(id);
      expect(universe.personByLinkedInUrl(url.replace(/\/in\/[a-z]+/, '/in/someoneelse'))).toBeUndefined();
    }
  });

  it('resolves companies by name, domain and LinkedIn URL', () => {
    for (const index of [0, 3, 5_000, 49_999]) {
      const company = universe.companies.get(index);
      expect(universe.companies.indexByName(company.name)).toBe(index);
      expect(universe.companies.indexByName(company.name.toUpperCase())).toBe(index);
      for (const domain of company.domains)
        expect(universe.companies.indexByDomain(`https://www.${domain}/about`)).toBe(index);
      expect(universe.companies.indexByLinkedInUrl(company.linkedinUrl)).toBe(index);
    }
    expect(universe.companies.indexByName('Acme Corp')).not.toBe(universe.companies.indexByName('Acme Corporation'));
    expect(universe.companies.indexByDomain('nosuchcompany.com')).toBeUndefined();
  });

  it('writes a dated career newest first, the current job first, and the work email on the employer domain', () => {
    for (let id = 1_000; id < 1_400; id++) {
      const person = universe.person(id);
      if (person.traits.titleOnly || person.traits.undatedExperience) continue;
      const [current, ...previous] = person.experience;
      expect(current).toMatchObject({
        isCurrent: true,
        end: null,
        companyIndex: person.company.index,
        title: person.title,
      });
      expect(previous.every((job) => !job.isCurrent && job.end !== null)).toBe(true);
      const starts = person.experience.map((job) => job.start!);
      expect([...starts].sort().reverse()).toEqual(starts);
      expect(current!.start! <= monthString(AS_OF_MONTH)).toBe(true);
      expect(person.workEmail.endsWith(`@${person.company.domain}`)).toBe(true);
      expect(person.personalEmail.endsWith(`@${person.company.domain}`)).toBe(false);
    }
  });

  it('puts the hard-case companies first under every seed, each with its staff and trait', () => {
    for (const seed of ['a', 'b']) {
      const u = new Universe({ seed, people: 20_000, companies: 1_000 });
      HARD_CASE_COMPANIES.forEach((hard, index) => {
        expect(u.companies.get(index)).toMatchObject({ name: hard.name, domain: hard.domain, staff: HARD_CASE_STAFF });
      });
      const initech = u.companies.indexByName('Initech')!;
      const globex = u.companies.indexByName('Globex')!;
      for (const id of u.staffOf(initech)) {
        const person = u.person(id);
        expect(person.tenureMonths).toBeLessThanOrEqual(2);
        expect(person.experience[1]?.companyIndex).toBe(globex);
      }
      for (const id of u.staffOf(u.companies.indexByName('Dunder Mifflin')!)) {
        expect(u.person(id)).toMatchObject({ experience: [], skills: [], education: [] });
      }
    }
  });

  it('a person is the same whatever was generated before it, on a fresh universe', () => {
    const backwards = new Universe({ seed: 'lazy', ...DEFAULT_UNIVERSE });
    const forwards = new Universe({ seed: 'lazy', ...DEFAULT_UNIVERSE });
    const last = backwards.person(999_999);
    for (let id = 0; id < 100; id++) forwards.person(id);
    expect(forwards.person(999_999)).toEqual(last);
    // Time per person is a figure, printed by test/bench/universe.bench.ts.
  });
});
