/**
 * The companies that carry the hard cases the spec's rules exist for. They take the first company
 * indexes of every universe, whatever the seed, so the README's queries find them under any seed.
 * Their staff (24 each) get the trait; ordinary people get most traits too, at a low rate.
 */

export interface CompanyTraits {
  /** Everyone here joined within the last two months from this company (by name). */
  readonly recentHiresFrom?: string;
  /** Personal-email finders return the person's work address as "personal". */
  readonly personalEmailOnWorkDomain?: boolean;
  /** The mail server rejects every address at the company's domain. */
  readonly undeliverableDomain?: boolean;
  /** Profiles list employers and titles without dates. */
  readonly undatedExperience?: boolean;
  /** Profiles have a current title and employer and nothing else. */
  readonly titleOnly?: boolean;
  /** People databases list a LinkedIn URL that belongs to someone else. */
  readonly listsForeignLinkedIn?: boolean;
  /** Employee k lives in pinnedCities[k % length]: a metro spread around the company's city. */
  readonly pinnedCities?: readonly string[];
}

export interface HardCaseCompany {
  readonly name: string;
  readonly domain: string;
  readonly slug: string;
  readonly industry: string;
  readonly city: string;
  /** How its staff write the employer on public profiles, when not its name. */
  readonly profileSpelling?: string;
  readonly traits?: CompanyTraits;
}

export const HARD_CASE_STAFF = 24;

export const HARD_CASE_COMPANIES: readonly HardCaseCompany[] = [
  // A one-word company that longer names merely contain (GoAcme) or start with (Acmetrics).
  { name: 'Acme', domain: 'acme.com', slug: 'acme', industry: 'Manufacturing', city: 'Chicago' },
  { name: 'GoAcme', domain: 'goacme.com', slug: 'goacme', industry: 'E-commerce', city: 'Austin' },
  { name: 'Acmetrics', domain: 'acmetrics.io', slug: 'acmetrics', industry: 'Software', city: 'Boston' },
  // Whole-word prefix: "Acme Corp" is a prefix of "Acme Corporation", a different company.
  { name: 'Acme Corp', domain: 'acmecorp.com', slug: 'acme-corp', industry: 'Financial Services', city: 'New York' },
  {
    name: 'Acme Corporation',
    domain: 'acmecorporation.com',
    slug: 'acme-corporation',
    industry: 'Logistics',
    city: 'Atlanta',
  },
  // Spelling variant: staff write the employer as "ACME-Inc" on their profiles.
  {
    name: 'Acme Inc',
    domain: 'acmeinc.com',
    slug: 'acme-inc',
    industry: 'Software',
    city: 'Seattle',
    profileSpelling: 'ACME-Inc',
  },
  // Brand domain: the domain is the name run together.
  { name: 'Acme Labs', domain: 'acmelabs.com', slug: 'acme-labs', industry: 'Biotechnology', city: 'Cambridge' },
  { name: 'Globex', domain: 'globex.com', slug: 'globex', industry: 'Energy', city: 'Denver' },
  {
    name: 'Initech',
    domain: 'initech.com',
    slug: 'initech',
    industry: 'Software',
    city: 'Austin',
    traits: { recentHiresFrom: 'Globex' },
  },
  {
    name: 'Hooli',
    domain: 'hooli.com',
    slug: 'hooli',
    industry: 'Software',
    city: 'Palo Alto',
    traits: { personalEmailOnWorkDomain: true },
  },
  {
    name: 'Vandelay Industries',
    domain: 'vandelay.com',
    slug: 'vandelay-industries',
    industry: 'Manufacturing',
    city: 'New York',
    traits: { undeliverableDomain: true },
  },
  {
    name: 'Pied Piper',
    domain: 'piedpiper.com',
    slug: 'pied-piper',
    industry: 'Software',
    city: 'Palo Alto',
    traits: { undatedExperience: true },
  },
  {
    name: 'Dunder Mifflin',
    domain: 'dundermifflin.com',
    slug: 'dunder-mifflin',
    industry: 'Staffing',
    city: 'Chicago',
    traits: { titleOnly: true },
  },
  {
    name: 'Soylent',
    domain: 'soylent.com',
    slug: 'soylent',
    industry: 'Healthcare',
    city: 'Los Angeles',
    traits: { listsForeignLinkedIn: true },
  },
  {
    name: 'Golden Gate Analytics',
    domain: 'goldengateanalytics.com',
    slug: 'golden-gate-analytics',
    industry: 'Software',
    city: 'San Francisco',
    traits: { pinnedCities: ['San Francisco', 'Oakland', 'San Francisco', 'San Mateo', 'San Francisco', 'San Jose'] },
  },
];

/** Shares of ordinary people that carry a person-level hard case. */
export const TRAIT_RATES = {
  recentMover: 0.05,
  personalEmailOnWorkDomain: 0.06,
  undatedExperience: 0.02,
  titleOnly: 0.01,
  listsForeignLinkedIn: 0.01,
} as const;
