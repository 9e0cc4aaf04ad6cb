import { employerDomain } from './company-match';

/** A row as the enrichment chains read it; the client's own keys stay on the row untouched. */
export type Row = Record<string, unknown>;

/** Who a row designates, read from the keys clients commonly send (first non-empty one wins). */
export interface Subject {
  readonly linkedin_url?: string;
  readonly first_name?: string;
  readonly last_name?: string;
  readonly full_name?: string;
  /** The employer's domain, when the row gives a real one (placeholders and social links are none). */
  readonly company_domain?: string;
  readonly company_name?: string;
}

export type SubjectField = keyof Subject;

const ALIASES: Readonly<Record<SubjectField, readonly string[]>> = {
  linkedin_url: ['linkedin_url', 'linkedin', 'linkedin_profile_url', 'profile_url'],
  first_name: ['first_name', 'firstname'],
  last_name: ['last_name', 'lastname'],
  full_name: ['full_name', 'name'],
  company_domain: ['company_domain', 'domain', 'company_website', 'website'],
  company_name: ['company_name', 'company', 'employer', 'current_company'],
};

/** The subject of a row: names completed from each other, the employer domain cleaned (rule 3). */
export function subjectOf(row: Row): Subject {
  const read = (field: SubjectField) => firstText(row, ALIASES[field]);
  const fullName = read('full_name');
  const [first, ...rest] = fullName?.split(/\s+/) ?? [];
  const firstName = read('first_name') ?? (rest.length > 0 ? first : undefined);
  const lastName = read('last_name') ?? (rest.length > 0 ? rest.join(' ') : undefined);
  const domainText = read('company_domain');
  return compact({
    linkedin_url: read('linkedin_url'),
    first_name: firstName,
    last_name: lastName,
    full_name: fullName ?? (firstName && lastName ? `${firstName} ${lastName}` : undefined),
    company_domain: domainText === undefined ? undefined : employerDomain(domainText),
    company_name: read('company_name'),
  });
}

function firstText(row: Row, keys: readonly string[]): string | undefined {
  for (const key of keys) {
    const value = row[key];
    if (typeof value === 'string' && value.trim() !== '') return value.trim();
  }
  return undefined;
}

function compact<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
