/**
 * The data vendors RDE works with, as their public documentation states them: the sandbox imitates
 * each one and catalog calls it, so both read its identity, key header and published rate from here
 * and can never disagree on them. Listed in the README's order.
 */

export type VendorKind =
  | 'people_database'
  | 'web_people_search'
  | 'linkedin_profile_search'
  | 'work_email_finder'
  | 'personal_email_finder'
  | 'email_validator'
  | 'phone_finder'
  | 'profile_enricher';

export interface VendorFacts {
  /** The vendor's own name, e.g. `PeopleGraph`. */
  readonly name: string;
  readonly kind: VendorKind;
  /** How it takes its key: `<header>: [<scheme> ]<key>`; `sandboxKey` is the key the sandbox's imitation accepts. */
  readonly auth: { readonly header: string; readonly scheme?: 'Bearer' | 'Token'; readonly sandboxKey: string };
  /** The request rate it publishes (its token bucket): `perSecond` sustained, up to `burst` at once. */
  readonly rate: { readonly perSecond: number; readonly burst: number };
}

export const VENDOR_FACTS = {
  pplgraph: {
    name: 'PeopleGraph',
    kind: 'people_database',
    auth: { header: 'X-Api-Key', sandboxKey: 'sbx-pplgraph-5f2c9a' },
    rate: { perSecond: 10, burst: 20 },
  },
  prospectdb: {
    name: 'ProspectDB',
    kind: 'people_database',
    auth: { header: 'Authorization', scheme: 'Bearer', sandboxKey: 'sbx-prospectdb-81d4e0' },
    rate: { perSecond: 5, burst: 10 },
  },
  webscout: {
    name: 'WebScout',
    kind: 'web_people_search',
    auth: { header: 'X-WebScout-Key', sandboxKey: 'sbx-webscout-c39b71' },
    rate: { perSecond: 3, burst: 6 },
  },
  linkscan: {
    name: 'LinkScan',
    kind: 'linkedin_profile_search',
    auth: { header: 'Authorization', scheme: 'Token', sandboxKey: 'sbx-linkscan-0e6f42' },
    rate: { perSecond: 3, burst: 6 },
  },
  mailfinder: {
    name: 'MailFinder',
    kind: 'work_email_finder',
    auth: { header: 'X-Mailfinder-Key', sandboxKey: 'sbx-mailfinder-a7710c' },
    rate: { perSecond: 15, burst: 30 },
  },
  reachout: {
    name: 'Reachout',
    kind: 'work_email_finder',
    auth: { header: 'X-Reachout-Token', sandboxKey: 'sbx-reachout-94b2d8' },
    rate: { perSecond: 10, burst: 20 },
  },
  bulkmail: {
    name: 'BulkMail',
    kind: 'work_email_finder',
    auth: { header: 'Api-Key', sandboxKey: 'sbx-bulkmail-3c58f1' },
    rate: { perSecond: 2, burst: 5 },
  },
  persona: {
    name: 'Persona',
    kind: 'personal_email_finder',
    auth: { header: 'X-Persona-Token', sandboxKey: 'sbx-persona-e2a0b9' },
    rate: { perSecond: 10, burst: 20 },
  },
  homebase: {
    name: 'HomeBase',
    kind: 'personal_email_finder',
    auth: { header: 'Authorization', scheme: 'Bearer', sandboxKey: 'sbx-homebase-6d13f7' },
    rate: { perSecond: 8, burst: 16 },
  },
  verimail: {
    name: 'VeriMail',
    kind: 'email_validator',
    auth: { header: 'X-Verimail-Auth', sandboxKey: 'sbx-verimail-1b9e44' },
    rate: { perSecond: 20, burst: 40 },
  },
  dialbook: {
    name: 'DialBook',
    kind: 'phone_finder',
    auth: { header: 'X-Dialbook-Key', sandboxKey: 'sbx-dialbook-77c3aa' },
    rate: { perSecond: 5, burst: 10 },
  },
  ringdirect: {
    name: 'RingDirect',
    kind: 'phone_finder',
    auth: { header: 'X-Ring-Key', sandboxKey: 'sbx-ringdirect-2f6b90' },
    rate: { perSecond: 5, burst: 10 },
  },
  profilely: {
    name: 'Profilely',
    kind: 'profile_enricher',
    auth: { header: 'X-Profilely-Key', sandboxKey: 'sbx-profilely-4a8d12' },
    rate: { perSecond: 8, burst: 16 },
  },
  litepro: {
    name: 'LitePro',
    kind: 'profile_enricher',
    auth: { header: 'X-LitePro-Key', sandboxKey: 'sbx-litepro-9c0e5b' },
    rate: { perSecond: 10, burst: 20 },
  },
} as const satisfies Record<string, VendorFacts>;

export type VendorId = keyof typeof VENDOR_FACTS;

/** Where the sandbox serves its imitation of a vendor, below its own address. */
export function sandboxPathOf(id: VendorId): string {
  return `/${id}`;
}
