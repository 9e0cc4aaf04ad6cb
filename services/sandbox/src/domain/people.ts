import type { Company } from './companies';
import { contactOf, type Contact } from './contact-details';
import type { Rng } from './hash';
import { PERSON_STREAMS, titleFor, type Career, type PersonFacts, type PersonTraits } from './person-facts';
import { SCHOOLS } from './person-vocabulary';
import { SENIORITIES, type City, type Seniority } from './vocabulary';

/** The universe's "today": dates are relative to it, never to the clock, so records never drift. */
export const AS_OF_MONTH = 2026 * 12;

export interface Experience {
  readonly company: string;
  readonly companyIndex: number;
  readonly companyDomain: string;
  readonly title: string;
  /** "YYYY-MM", or null on a profile without dated experience. */
  readonly start: string | null;
  readonly end: string | null;
  readonly isCurrent: boolean;
  readonly durationMonths: number | null;
}

export interface Education {
  readonly school: string;
  readonly degree: string;
  readonly startYear: number;
  readonly endYear: number;
}

/** What people databases hold about a person: everything but the history. Cheap to build. */
export interface PersonSummary {
  readonly index: number;
  readonly id: string;
  readonly firstName: string;
  readonly lastName: string;
  readonly fullName: string;
  readonly linkedinUrl: string;
  readonly headline: string;
  readonly title: string;
  readonly seniority: Seniority;
  readonly department: string;
  readonly company: Pick<Company, 'index' | 'name' | 'domain' | 'linkedinUrl' | 'profileSpelling'>;
  readonly city: City;
  readonly skills: readonly string[];
  readonly yearsExperience: number;
  readonly tenureMonths: number;
  readonly traits: PersonTraits;
}

/** A whole profile: the summary, contact details and history. */
export interface Person extends PersonSummary, Contact {
  readonly certifications: readonly string[];
  readonly education: readonly Education[];
  /** Newest first; the first entry is the current job. Empty on a title-only profile. */
  readonly experience: readonly Experience[];
}

export function monthString(month: number): string {
  const m = (month % 12) + 1;
  return `${Math.floor(month / 12)}-${m < 10 ? '0' : ''}${m}`;
}

export function buildSummary(universe: PersonFacts, id: number): PersonSummary {
  const companyIndex = universe.companyOf(id);
  const { first, last } = universe.nameOf(id, companyIndex);
  const company = universe.companies.get(companyIndex);
  const seniority = universe.seniorityOf(id);
  const title = titleFor(universe.roleOf(id), seniority);
  const traits = universe.traitsOf(id, companyIndex);
  const career = universe.careerOf(id, traits);
  const skills = universe.skillsOf(id, traits);
  const headline = universe.personStream(id, PERSON_STREAMS.headline);
  return {
    index: id,
    id: `per_${id}`,
    firstName: first,
    lastName: last,
    fullName: `${first} ${last}`,
    linkedinUrl: universe.linkedinUrlOf(id, { first, last }),
    headline: traits.titleOnly
      ? title
      : headline.chance(0.6)
        ? `${title} at ${company.name}`
        : `${title} | ${skills.slice(0, 3).join(' · ')}`,
    title,
    seniority,
    department: universe.roleOf(id).department,
    company: {
      index: company.index,
      name: company.name,
      domain: company.domain,
      linkedinUrl: company.linkedinUrl,
      profileSpelling: company.profileSpelling,
    },
    city: universe.cityOf(id, companyIndex),
    skills,
    yearsExperience: Math.floor(career.totalMonths / 12),
    tenureMonths: career.tenureMonths,
    traits,
  };
}

export function buildPerson(universe: PersonFacts, id: number): Person {
  const summary = buildSummary(universe, id);
  const rng = universe.personStream(id, PERSON_STREAMS.history);
  const { traits } = summary;
  const career = universe.careerOf(id, traits);
  const firstJobYear = Math.floor((AS_OF_MONTH - career.totalMonths) / 12);
  // Added to the fresh summary rather than spread into a new object: spreads are slow in V8.
  return Object.assign(summary, contactOf(universe, id), {
    certifications: traits.titleOnly
      ? []
      : rng.sample(universe.departmentOf(id).certifications, rng.pick([0, 0, 0, 1, 1, 2])),
    education: traits.titleOnly ? [] : buildEducation(universe, id, firstJobYear, rng),
    experience: traits.titleOnly ? [] : buildExperience(universe, id, summary.company.index, traits, career, rng),
  });
}

/**
 * The current job, then earlier ones going back to the first, each at a lower or equal level.
 * A recent mover's previous job is at the company they moved from.
 */
function buildExperience(
  universe: PersonFacts,
  id: number,
  companyIndex: number,
  traits: PersonTraits,
  career: Career,
  rng: Rng,
): Experience[] {
  const role = universe.roleOf(id);
  const { totalMonths, tenureMonths } = career;
  const undated = traits.undatedExperience;
  const job = (employer: Company, title: string, start: number, end: number | null): Experience => ({
    company: employer.name,
    companyIndex: employer.index,
    companyDomain: employer.domain,
    title,
    start: undated ? null : monthString(start),
    end: undated || end === null ? null : monthString(end),
    isCurrent: end === null,
    durationMonths: undated ? null : (end ?? AS_OF_MONTH) - start,
  });
  const jobs = [
    job(
      universe.companies.get(companyIndex),
      titleFor(role, universe.seniorityOf(id)),
      AS_OF_MONTH - tenureMonths,
      null,
    ),
  ];
  let level = SENIORITIES.indexOf(universe.seniorityOf(id));
  let cursor = AS_OF_MONTH - tenureMonths;
  let remaining = totalMonths - tenureMonths;
  while (remaining >= 6 && jobs.length < 5) {
    const isFirstPrevious = jobs.length === 1;
    const gap = isFirstPrevious && traits.movedFrom !== undefined ? 0 : rng.int(0, 2);
    const duration = Math.min(remaining - gap, rng.int(12, 48));
    if (duration < 3) break;
    const employerIndex =
      isFirstPrevious && traits.movedFrom !== undefined
        ? traits.movedFrom
        : universe.otherGeneratedCompany(companyIndex, rng.int(0, 0x3fffffff));
    level = Math.max(0, level - rng.int(0, 1));
    const end = cursor - gap;
    jobs.push(job(universe.companies.get(employerIndex), titleFor(role, SENIORITIES[level]!), end - duration, end));
    cursor = end - duration;
    remaining -= duration + gap;
  }
  return jobs;
}

function buildEducation(universe: PersonFacts, id: number, firstJobYear: number, rng: Rng): Education[] {
  const degree = universe.roleOf(id).degree;
  const graduate = /^(MSc|MBA|JD)/.test(degree);
  const endYear = firstJobYear;
  if (!graduate) return [{ school: rng.pick(SCHOOLS), degree, startYear: endYear - 4, endYear }];
  return [
    { school: rng.pick(SCHOOLS), degree, startYear: endYear - 2, endYear },
    { school: rng.pick(SCHOOLS), degree: 'BSc', startYear: endYear - 6, endYear: endYear - 2 },
  ];
}
