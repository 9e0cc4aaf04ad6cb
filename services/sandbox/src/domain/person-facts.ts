import type { CompanyDirectory } from './companies';
import type { Rng } from './hash';
import { DEPARTMENTS, type City, type Department, type Role, type Seniority } from './vocabulary';

export interface PersonTraits {
  /** A recent mover's previous employer: finders with stale data still return its address. */
  readonly movedFrom: number | undefined;
  readonly personalEmailOnWorkDomain: boolean;
  readonly undatedExperience: boolean;
  readonly titleOnly: boolean;
  /** The person whose LinkedIn URL people databases list for this person. */
  readonly listedLinkedInOf: number | undefined;
}

export interface Career {
  /** Months since the first job started. */
  readonly totalMonths: number;
  /** Months in the current job. */
  readonly tenureMonths: number;
}

/**
 * What building a person reads of the universe, per person index. The universe implements it; the
 * builders in people.ts depend on this and not on the universe, which calls them.
 */
export interface PersonFacts {
  readonly companies: CompanyDirectory;
  personStream(id: number, stream: number): Rng;
  companyOf(id: number): number;
  roleOf(id: number): Role;
  departmentOf(id: number): Department;
  seniorityOf(id: number): Seniority;
  cityOf(id: number, company?: number): City;
  nameOf(id: number, company?: number): { first: string; last: string };
  skillsOf(id: number, traits?: PersonTraits): string[];
  careerOf(id: number, traits?: PersonTraits): Career;
  traitsOf(id: number, company?: number): PersonTraits;
  linkedinUrlOf(id: number, name?: { first: string; last: string }): string;
  otherGeneratedCompany(company: number, salt: number): number;
}

/** Each part of a person draws from its own stream, so a part is built without the others. */
export const PERSON_STREAMS = { headline: 1, contact: 2, history: 3 } as const;

export const DEPARTMENT_BY_ID = new Map(DEPARTMENTS.map((department) => [department.id, department]));

/** The title a role carries at a level: ICs keep the role's title, managers up take the department's. */
export function titleFor(role: Role, seniority: Seniority): string {
  const department = DEPARTMENT_BY_ID.get(role.department)!;
  switch (seniority) {
    case 'entry':
      return role.title;
    case 'senior':
      return `Senior ${role.title}`;
    case 'manager':
      return `${department.noun} Manager`;
    case 'director':
      return `Director of ${department.noun}`;
    case 'vp':
      return `VP of ${department.noun}`;
    case 'cxo':
      return department.chief;
  }
}
