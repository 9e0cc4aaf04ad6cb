import { emailDomain, isAtDomain, nameMatchesDomain, sameCompanyName } from './company-match';
import type { Profile } from './profile';
import type { Subject } from './subject';

/** Step outcomes a provider's answer can end in (the spec's list, plus `hit`). */
export type MissOutcome =
  | 'no_result'
  | 'skip'
  | 'company_mismatch'
  | 'corporate_domain'
  | 'invalid_email'
  | 'identity_mismatch'
  | 'still_enriching';

/**
 * What a capability makes of one provider answer. Only a hit is billed; a miss costs 0, and a miss
 * that `ends` the row stops its chain (someone else's profile), the others let the chain go on.
 */
export type Verdict =
  | { readonly kind: 'hit'; readonly value: unknown; readonly extra?: Readonly<Record<string, unknown>> }
  | {
      readonly kind: 'miss';
      readonly outcome: MissOutcome;
      readonly detail?: string;
      readonly ends?: boolean;
      readonly extra?: Readonly<Record<string, unknown>>;
    };

export const miss = (outcome: MissOutcome, detail?: string): Verdict => ({
  kind: 'miss',
  outcome,
  ...(detail && { detail }),
});

/** Rule 3's report on a work email: does it belong to the row's employer, judged on what basis. */
export interface CompanyMatch {
  readonly company_match: boolean | null;
  readonly company_match_basis: 'company_domain' | 'company_name' | null;
}

/** What the row offers to judge an address's employer by; every email row carries it (rule 3). */
export function companyMatchOf(subject: Subject, address?: string): CompanyMatch {
  if (subject.company_domain !== undefined) {
    return {
      company_match: address === undefined ? null : isAtDomain(address, subject.company_domain),
      company_match_basis: 'company_domain',
    };
  }
  if (subject.company_name !== undefined) {
    const domain = address === undefined ? undefined : emailDomain(address);
    return {
      company_match: domain === undefined ? null : nameMatchesDomain(subject.company_name, domain),
      company_match_basis: 'company_name',
    };
  }
  return { company_match: null, company_match_basis: null };
}

/**
 * Rule 3, `email_enrichment`: a `company_domain` on the row is authoritative, so an address at any
 * other domain is dropped (`company_mismatch`, the chain goes on). With only a company name the
 * address is kept and the name-to-domain verdict reported.
 */
export function workEmailVerdict(subject: Subject, address: string | undefined): Verdict {
  if (!address || emailDomain(address) === undefined) return miss('no_result');
  const match = companyMatchOf(subject, address);
  if (match.company_match_basis === 'company_domain' && match.company_match === false) {
    return { kind: 'miss', outcome: 'company_mismatch', detail: `address at ${emailDomain(address)}` };
  }
  return { kind: 'hit', value: address, extra: { ...match } };
}

/**
 * Rule 2, `personal_email`, before any validation: an address on the person's own company domain
 * is not personal (`corporate_domain`, free, and not worth validating). Undefined: validate it.
 */
export function personalEmailScreen(subject: Subject, address: string): Verdict | undefined {
  const domain = emailDomain(address);
  if (domain === undefined) return miss('invalid_email', 'not an address');
  const own =
    (subject.company_domain !== undefined && isAtDomain(address, subject.company_domain)) ||
    (subject.company_name !== undefined && nameMatchesDomain(subject.company_name, domain));
  return own ? miss('corporate_domain', `address at ${domain}`) : undefined;
}

/** The validator's answer on one address, as rule 2 reads it. */
export interface Deliverability {
  /** `deliverable`, `undeliverable`, `risky` or `unknown`. */
  readonly result: string;
  /** Whether the address is at a free-mail provider (a personal mailbox) rather than an employer. */
  readonly free: boolean;
}

/**
 * Rule 2 after validation: an address at another employer is `company_mismatch`, one that failed
 * deliverability (or could not be checked: `unknown`, whose free-mail flag means nothing)
 * `invalid_email`; both settle at zero. Deliverable (or catch-all risky) free-mail addresses are hits.
 */
export function personalEmailVerdict(address: string, check: Deliverability): Verdict {
  if (check.result === 'unknown') return miss('invalid_email', 'unknown');
  if (!check.free) return miss('company_mismatch', `address at ${emailDomain(address)}`);
  if (check.result !== 'deliverable' && check.result !== 'risky') return miss('invalid_email', check.result);
  return { kind: 'hit', value: address };
}

/**
 * Rule 4, `linkedin_profile`: a profile of someone else (the row's name differs, or the employer
 * the row names is nowhere in the experience) ends the row with `identity_mismatch` and the name
 * found; a profile without dated experience is a miss and the chain goes on.
 */
export function profileVerdict(subject: Subject, profile: Profile | undefined): Verdict {
  if (!profile) return miss('no_result');
  const dated = profile.experience.some((job) => job.start !== null);
  const otherName =
    subject.full_name !== undefined &&
    profile.full_name !== undefined &&
    !sameName(subject.full_name, profile.full_name);
  // The employer test needs an experience to look in; an undated one is a plain miss below.
  const someoneElse = otherName || (dated && !employerAppears(subject, profile));
  if (someoneElse) {
    return {
      kind: 'miss',
      outcome: 'identity_mismatch',
      ends: true,
      extra: { matched_name: profile.full_name ?? null },
    };
  }
  if (!dated) return miss('no_result', 'no_dated_experience');
  return { kind: 'hit', value: profile };
}

/** Whether the employer a row names (by name, else by domain) appears anywhere in the experience. */
function employerAppears(subject: Subject, profile: Profile): boolean {
  const { company_name: name, company_domain: domain } = subject;
  if (name !== undefined) return profile.experience.some((job) => sameCompanyName(job.company, name));
  if (domain !== undefined) return profile.experience.some((job) => nameMatchesDomain(job.company, domain));
  return true;
}

/** `phone_enrichment`: a number is a hit; nothing is a free miss. */
export function phoneVerdict(phone: string | undefined): Verdict {
  return phone ? { kind: 'hit', value: phone } : miss('no_result');
}

/** Two person names are the same when their words are, ignoring case, accents and punctuation. */
export function sameName(a: string, b: string): boolean {
  const words = (name: string) =>
    name
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .split(/[^a-z0-9]+/)
      .filter(Boolean)
      .join(' ');
  return words(a) !== '' && words(a) === words(b);
}
