/**
 * Company verification (spec "Search", rule 7): a row is kept only when the person's current
 * company matches a requested company as a whole name. A request that is a whole-word prefix of
 * the result matches (`Acme Corp` / `Acme Corporation`); a single word that a longer name merely
 * contains or starts with does not (`acme` / `GoAcme`, `Acmetrics`); spelling variants match
 * (`Acme Inc` / `ACME-Inc`); and a domain's brand matches the name run together (`acmelabs.com` /
 * `Acme Labs`).
 */

/** Legal-form words that spelling variants add or drop. */
const LEGAL_FORMS = new Set(['inc', 'llc', 'ltd', 'gmbh', 'co', 'corp', 'corporation', 'plc', 'sa', 'ag', 'limited']);
/** Words a company's domain often leaves out (`vandelay.com` for Vandelay Industries). */
const DOMAIN_OMITS = new Set([...LEGAL_FORMS, 'industries', 'group', 'holdings', 'company', 'technologies']);

/** Lower-case words of a company name, punctuation and dashes as spaces, `&` as `and`. */
export function companyWords(name: string): string[] {
  return name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/&/g, ' and ')
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

/** The brand of a domain or website: `https://www.acmelabs.com/` → `acmelabs`. */
export function domainBrand(domain: string): string {
  const host = domain
    .toLowerCase()
    .replace(/^[a-z]+:\/\//, '')
    .replace(/^www\./, '')
    .split(/[/?#]/)[0];
  return host.split('.')[0] ?? '';
}

/** Whether `result` (the person's current company) is the requested company `requested`. */
export function matchesCompanyName(requested: string, result: string): boolean {
  const want = companyWords(requested);
  const got = companyWords(result);
  if (want.length === 0 || got.length === 0) return false;
  if (sameWords(want, got)) return true;
  // A spelling variant where one side adds the legal form (`Acme Inc` / `Acme`); two different legal
  // forms are two companies (`Acme Corp` / `Acme Corporation`).
  const wantCore = withoutTrailing(want, LEGAL_FORMS);
  const gotCore = withoutTrailing(got, LEGAL_FORMS);
  if ((wantCore.length === want.length) !== (gotCore.length === got.length) && sameWords(wantCore, gotCore)) {
    return true;
  }
  // The request's words begin the result's (`Acme` / `Acme Labs`), never part of one word (`GoAcme`).
  if (isWholeWordPrefix(want, got)) return true;
  // `Acme Corp` / `Acme Corporation`; a single word starting a longer one (`acme` / `Acmetrics`) is not.
  return want.length >= 2 && isWordPrefixOfLastWord(want, got);
}

/** A requested domain matches a result company whose name, run together, is the domain's brand. */
export function matchesCompanyDomain(requestedDomain: string, resultCompany: string, resultDomain?: string): boolean {
  const brand = domainBrand(requestedDomain);
  if (!brand) return false;
  if (resultDomain && domainBrand(resultDomain) === brand) return true;
  const words = companyWords(resultCompany);
  return words.join('') === brand || withoutTrailing(words, DOMAIN_OMITS).join('') === brand;
}

export interface CompanyRequest {
  readonly names: readonly string[];
  readonly domains: readonly string[];
}

/** Whether a row's current company verifies against any requested company. */
export function verifiesCompany(request: CompanyRequest, company?: string, domain?: string): boolean {
  if (!company && !domain) return false;
  return (
    request.names.some((name) => company !== undefined && matchesCompanyName(name, company)) ||
    request.domains.some((wanted) => matchesCompanyDomain(wanted, company ?? '', domain))
  );
}

function sameWords(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((word, index) => word === b[index]);
}

function withoutTrailing(words: readonly string[], omitted: ReadonlySet<string>): string[] {
  return words.length > 1 && omitted.has(words.at(-1)!) ? words.slice(0, -1) : [...words];
}

function isWholeWordPrefix(want: readonly string[], got: readonly string[]): boolean {
  return want.length < got.length && want.every((word, index) => word === got[index]);
}

/** `Acme Corp` / `Acme Corporation`: every word equal but the request's last, which starts the result's last. */
function isWordPrefixOfLastWord(want: readonly string[], got: readonly string[]): boolean {
  if (want.length !== got.length) return false;
  const last = want.length - 1;
  return want.slice(0, last).every((word, index) => word === got[index]) && got[last].startsWith(want[last]);
}
