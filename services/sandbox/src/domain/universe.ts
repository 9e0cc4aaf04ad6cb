import { CompanyDirectory, HARD_CASE_STAFF_TOTAL, cityByName, staffWeights } from './companies';
import { HARD_CASE_COMPANIES, HARD_CASE_STAFF, TRAIT_RATES } from './hard-cases';
import { hash2, hashString, Rng, unit } from './hash';
import { NameDealer } from './name-dealer';
import { apportion, Partition, Permutation } from './partition';
import { buildPerson, buildSummary, type Person, type PersonSummary } from './people';
import { DEPARTMENT_BY_ID, titleFor, type Career, type PersonFacts, type PersonTraits } from './person-facts';
import { compact } from './text';
import {
  ALL_SKILLS,
  CITIES,
  ROLES,
  SENIORITIES,
  SENIORITY_WEIGHTS,
  YEARS_BY_SENIORITY,
  type City,
  type Department,
  type Role,
  type Seniority,
} from './vocabulary';

export interface UniverseOptions {
  readonly seed: string;
  readonly people: number;
  readonly companies: number;
}

export const DEFAULT_UNIVERSE = { people: 1_000_000, companies: 50_000 } as const;

const TRAIT_SALTS = Object.fromEntries(Object.keys(TRAIT_RATES).map((trait) => [trait, hashString(trait)])) as Record<
  keyof typeof TRAIT_RATES,
  number
>;
/**
 * The synthetic people universe. Nothing about a person is stored: every attribute is a function
 * of (seed, person index). The attributes searches filter on (employer, role, level, city, side
 * skill) are partitions, so "who has value v" is enumerable without scanning (see Partition).
 */
export class Universe implements PersonFacts {
  readonly seed: string;
  readonly people: number;
  readonly companies: CompanyDirectory;
  /** Which company each person works at now. */
  readonly employment: Partition;
  readonly roles: Partition;
  readonly levels: Partition;
  readonly cities: Partition;
  readonly sideSkills: Partition;
  readonly seedHash: number;
  private readonly linkedinCodes: Permutation;
  private readonly names: NameDealer;
  private readonly keys: Record<'skills' | 'career' | 'traits' | 'person', number>;

  constructor(options: UniverseOptions) {
    this.seed = options.seed;
    this.people = options.people;
    this.seedHash = hashString(options.seed);
    const key = (stream: string) => hash2(this.seedHash, hashString(stream));
    const generatedStaff = apportion(
      staffWeights(this.seedHash, options.companies),
      options.people - HARD_CASE_STAFF_TOTAL,
    );
    const staff = [...HARD_CASE_COMPANIES.map(() => HARD_CASE_STAFF), ...generatedStaff];
    this.employment = new Partition(options.people, staff, key('employment'));
    this.companies = new CompanyDirectory(this.seedHash, options.companies, (index) => this.employment.countOf(index));
    const byWeight = (weights: readonly number[], stream: string) =>
      new Partition(options.people, apportion(weights, options.people), key(stream));
    this.roles = byWeight(
      ROLES.map((role) => role.weight),
      'roles',
    );
    this.levels = byWeight(SENIORITY_WEIGHTS, 'levels');
    this.cities = byWeight(
      CITIES.map((city) => city.weight),
      'cities',
    );
    this.sideSkills = byWeight(
      ALL_SKILLS.map(() => 1),
      'side-skills',
    );
    this.linkedinCodes = new Permutation(options.people, key('linkedin'));
    this.names = new NameDealer(this.employment, key('names'), key('name-slots'));
    this.keys = {
      skills: key('skills'),
      career: key('career'),
      traits: key('traits'),
      person: key('person'),
    };
  }

  person(id: number): Person {
    this.assertPerson(id);
    return buildPerson(this, id);
  }

  /** The person without their history (experience, education, certifications): what search rows need. */
  summary(id: number): PersonSummary {
    this.assertPerson(id);
    return buildSummary(this, id);
  }

  /** The draws for one part of one person's record. */
  personStream(id: number, stream: number): Rng {
    return new Rng(hash2(this.keys.person ^ Math.imul(stream, 0x9e3779b9), id));
  }

  assertPerson(id: number): void {
    if (!(Number.isInteger(id) && id >= 0 && id < this.people)) throw new RangeError(`no person ${id}`);
  }

  companyOf(id: number): number {
    return this.employment.valueOf(id);
  }

  roleOf(id: number): Role {
    return ROLES[this.roles.valueOf(id)]!;
  }

  departmentOf(id: number): Department {
    return DEPARTMENT_BY_ID.get(this.roleOf(id).department)!;
  }

  seniorityOf(id: number): Seniority {
    return SENIORITIES[this.levels.valueOf(id)]!;
  }

  titleOf(id: number): string {
    return titleFor(this.roleOf(id), this.seniorityOf(id));
  }

  cityOf(id: number, company = this.companyOf(id)): City {
    const pinned = HARD_CASE_COMPANIES[company]?.traits?.pinnedCities;
    if (pinned) return cityByName(pinned[this.employment.rankOf(id, company) % pinned.length]!)!;
    return CITIES[this.cities.valueOf(id)]!;
  }

  /** Unique within the company (see NameDealer). */
  nameOf(id: number, company = this.companyOf(id)): { first: string; last: string } {
    return this.names.nameOf(id, company);
  }

  /** A few of the role's skills plus one side skill; title-only profiles list none. */
  skillsOf(id: number, traits = this.traitsOf(id)): string[] {
    if (traits.titleOnly) return [];
    const rng = new Rng(hash2(this.keys.skills, id));
    const skills = rng.sample(this.roleOf(id).skills, rng.int(3, 5));
    const side = ALL_SKILLS[this.sideSkills.valueOf(id)]!;
    if (!skills.includes(side)) skills.push(side);
    return skills;
  }

  careerOf(id: number, traits = this.traitsOf(id)): Career {
    const [minYears, maxYears] = YEARS_BY_SENIORITY[this.seniorityOf(id)];
    const rng = new Rng(hash2(this.keys.career, id));
    const drawn = rng.int(minYears * 12 + 3, maxYears * 12 + 11);
    if (traits.movedFrom === undefined) return { totalMonths: drawn, tenureMonths: rng.int(3, Math.min(drawn, 96)) };
    // A recent mover has at least a year at the employer they left.
    const tenureMonths = rng.int(1, 2);
    return { totalMonths: Math.max(drawn, tenureMonths + 12), tenureMonths };
  }

  /** Staff of a hard-case company carry its trait and nothing else, so each case stays clean. */
  traitsOf(id: number, company = this.companyOf(id)): PersonTraits {
    const hardCase = HARD_CASE_COMPANIES[company];
    const traits = hardCase?.traits ?? {};
    const roll = (trait: keyof typeof TRAIT_RATES) =>
      hardCase === undefined && unit(hash2(this.keys.traits ^ TRAIT_SALTS[trait], id)) < TRAIT_RATES[trait];
    let movedFrom: number | undefined;
    if (traits.recentHiresFrom !== undefined) movedFrom = this.companies.indexByName(traits.recentHiresFrom);
    else if (roll('recentMover')) movedFrom = this.otherGeneratedCompany(company, id);
    return {
      movedFrom,
      listedLinkedInOf:
        traits.listsForeignLinkedIn || roll('listsForeignLinkedIn')
          ? (id + 1 + (hash2(this.keys.traits, id) % (this.people - 1))) % this.people
          : undefined,
      personalEmailOnWorkDomain: traits.personalEmailOnWorkDomain ?? roll('personalEmailOnWorkDomain'),
      undatedExperience: traits.undatedExperience ?? roll('undatedExperience'),
      titleOnly: traits.titleOnly ?? roll('titleOnly'),
    };
  }

  linkedinUrlOf(id: number, { first, last } = this.nameOf(id)): string {
    return `https://www.linkedin.com/in/${compact(first)}-${compact(last)}-${this.linkedinCodes.forward(id).toString(36)}`;
  }

  /** The LinkedIn URL people databases list for a person: someone else's for the foreign-URL hard case. */
  listedLinkedInUrlOf(id: number, traits = this.traitsOf(id)): string {
    return this.linkedinUrlOf(traits.listedLinkedInOf ?? id);
  }

  /** The person whose profile a LinkedIn URL is, only for the exact URL (scheme, www and a trailing slash aside). */
  personByLinkedInUrl(url: string): number | undefined {
    const match = /linkedin\.com\/in\/([a-z0-9-]+)\/?$/.exec(url.trim().toLowerCase());
    const code = match?.[1]!.split('-').pop();
    if (!code) return undefined;
    const slot = parseInt(code, 36);
    if (!(slot >= 0 && slot < this.people)) return undefined;
    const id = this.linkedinCodes.inverse(slot);
    return this.linkedinUrlOf(id).endsWith(`/in/${match![1]}`) ? id : undefined;
  }

  /** Everyone working at the company now. */
  staffOf(company: number): number[] {
    return Array.from({ length: this.employment.countOf(company) }, (_, k) => this.employment.member(company, k));
  }

  /** The current employee of the company with this name, if any: `nameOf` run backwards. */
  findEmployee(company: number, firstName: string, lastName: string): number | undefined {
    if (!(company >= 0 && company < this.companies.count)) return undefined;
    return this.names.employeeNamed(company, firstName, lastName);
  }

  /** The index of the hash-chosen generated company other than `company`, for a previous job. */
  otherGeneratedCompany(company: number, salt: number): number {
    const first = HARD_CASE_COMPANIES.length;
    const span = this.companies.count - first;
    const pick = first + (hash2(this.seedHash, salt) % span);
    return pick === company ? first + ((pick - first + 1) % span) : pick;
  }
}
