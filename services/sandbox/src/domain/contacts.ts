import type { Universe } from './universe';

/** What finders are asked with: a LinkedIn URL, or a name at a company (name, domain or LinkedIn URL). */
export interface ContactQuery {
  readonly linkedinUrl?: string | undefined;
  readonly firstName?: string | undefined;
  readonly lastName?: string | undefined;
  /** "Jan de Vries": the first word is the first name, the rest the last name. */
  readonly fullName?: string | undefined;
  readonly company?: string | undefined;
}

/** The person a finder's input designates, if the universe has them. The URL wins when both are given. */
export function findContact(universe: Universe, query: ContactQuery): number | undefined {
  if (query.linkedinUrl) return universe.personByLinkedInUrl(query.linkedinUrl);
  const [first, ...rest] = query.fullName?.trim().split(/\s+/) ?? [query.firstName, query.lastName];
  const company = query.company === undefined ? undefined : universe.companies.indexByIdentifier(query.company);
  if (company === undefined || !first || rest.length === 0) return undefined;
  return universe.findEmployee(company, first, rest.join(' '));
}
