import type { Company } from './companies';
import type { Rng } from './hash';
import { PERSON_STREAMS, type PersonFacts } from './person-facts';
import { FREE_MAIL_DOMAINS } from './person-vocabulary';
import { compact } from './text';
import type { City } from './vocabulary';

/** How to reach a person: what finders find. */
export interface Contact {
  readonly workEmail: string;
  readonly personalEmail: string;
  readonly mobilePhone: string;
}

/** The address a person would have at a company, by that company's pattern. */
export function addressAt(company: Company, firstName: string, lastName: string): string {
  const first = compact(firstName);
  const last = compact(lastName);
  switch (company.emailPattern) {
    case 'first.last':
      return `${first}.${last}@${company.domain}`;
    case 'flast':
      return `${first[0]}${last}@${company.domain}`;
    case 'first':
      return `${first}@${company.domain}`;
    case 'firstlast':
      return `${first}${last}@${company.domain}`;
  }
}

/** A person's address at their current employer. */
export function workEmailOf(universe: PersonFacts, id: number): string {
  const { first, last } = universe.nameOf(id);
  return addressAt(universe.companies.get(universe.companyOf(id)), first, last);
}

/** A recent mover's address at the employer they left: what finders with stale data return. */
export function previousWorkEmailOf(universe: PersonFacts, id: number): string | undefined {
  const movedFrom = universe.traitsOf(id).movedFrom;
  if (movedFrom === undefined) return undefined;
  const { first, last } = universe.nameOf(id);
  return addressAt(universe.companies.get(movedFrom), first, last);
}

export function contactOf(universe: PersonFacts, id: number): Contact {
  const { first, last } = universe.nameOf(id);
  const rng = universe.personStream(id, PERSON_STREAMS.contact);
  return {
    workEmail: workEmailOf(universe, id),
    personalEmail: `${personalLocalPart(first, last, rng)}@${rng.pick(FREE_MAIL_DOMAINS)}`,
    mobilePhone: mobileNumber(universe.cityOf(id), rng),
  };
}

/** E.164: the city's prefix, then 7 digits in North America (area code in the prefix) or 8 elsewhere. */
function mobileNumber(city: City, rng: Rng): string {
  const northAmerican = city.phonePrefix.startsWith('+1');
  return (
    city.phonePrefix + String(rng.int(0, northAmerican ? 9_999_999 : 99_999_999)).padStart(northAmerican ? 7 : 8, '0')
  );
}

function personalLocalPart(firstName: string, lastName: string, rng: Rng): string {
  const first = compact(firstName);
  const last = compact(lastName);
  switch (rng.int(0, 2)) {
    case 0:
      return `${first}.${last}`;
    case 1:
      return `${first}${last}${rng.int(1, 99)}`;
    default:
      return `${first[0]}${last}${rng.int(1970, 2004)}`;
  }
}
