import { HARD_CASE_COMPANIES, HARD_CASE_STAFF, type CompanyTraits } from './hard-cases';
import { hash2, hashString, Rng, unit } from './hash';
import { Permutation } from './partition';
import { compact, domainOf, normalizeName } from './text';
import {
  COMPANY_NAME_SUFFIXES,
  INDUSTRIES,
  NAME_HEADS,
  NAME_MIDDLES,
  NAME_TAILS,
  SIZE_BANDS,
} from './company-vocabulary';
import { CITIES, type City } from './vocabulary';

export type EmailPattern = 'first.last' | 'flast' | 'first' | 'firstlast';
const EMAIL_PATTERNS: readonly EmailPattern[] = ['first.last', 'first.last', 'flast', 'first', 'firstlast'];

/** The universe samples the world: one person in it stands for this many employees of a company. */
const HEADCOUNT_SCALE = 25;

export interface Company {
  readonly index: number;
  readonly id: string;
  readonly name: string;
  readonly domain: string;
  /** The primary domain first; some companies also own a second one. */
  readonly domains: readonly string[];
  readonly linkedinUrl: string;
  readonly industry: string;
  readonly city: City;
  /** People of this universe who work here now. */
  readonly staff: number;
  /** The employee count the company reports. */
  readonly headcount: number;
  readonly sizeBand: string;
  readonly founded: number;
  readonly emailPattern: EmailPattern;
  /** A catch-all mail server: validators cannot tell good addresses from bad ones. */
  readonly acceptsAllMail: boolean;
  readonly profileSpelling: string | undefined;
  readonly traits: CompanyTraits;
}

const HEADS = new Map(NAME_HEADS.map((head, i) => [head.toLowerCase(), i]));
const MIDDLES = new Map(NAME_MIDDLES.map((middle, i) => [middle, i]));
const TAILS = new Map(NAME_TAILS.map((tail, i) => [tail, i]));
const NAME_COMBINATIONS = NAME_HEADS.length * NAME_MIDDLES.length * NAME_TAILS.length;
const HARD_BY_NAME = new Map(HARD_CASE_COMPANIES.map((company, i) => [normalizeName(company.name), i]));
const HARD_BY_DOMAIN = new Map(HARD_CASE_COMPANIES.map((company, i) => [company.domain, i]));
const HARD_BY_SLUG = new Map(HARD_CASE_COMPANIES.map((company, i) => [company.slug, i]));
const CITY_BY_NAME = new Map(CITIES.map((city) => [city.name, city]));
const TLDS = ['.com', '.com', '.com', '.com', '.com', '.com', '.com', '.io', '.io', '.co'];
const NO_TRAITS: CompanyTraits = {};
const RECENT_COMPANIES = 5_000;
const CITY_WEIGHT_TOTAL = CITIES.reduce((sum, city) => sum + city.weight, 0);

/**
 * How many of `people` work at each of `count` companies: 24 at each hard-case company, a heavy
 * tail (a few thousand down to a handful) elsewhere. Used once per universe to lay out the company index.
 */
export function staffWeights(seed: number, count: number): number[] {
  const key = hash2(seed, hashString('company-size'));
  const weights: number[] = [];
  for (let i = HARD_CASE_COMPANIES.length; i < count; i++) weights.push(1 / (unit(hash2(key, i)) + 0.001));
  return weights;
}

export const HARD_CASE_STAFF_TOTAL = HARD_CASE_COMPANIES.length * HARD_CASE_STAFF;

/** Companies by index, generated on demand, and the lookups vendors resolve company identifiers with. */
export class CompanyDirectory {
  private readonly key: number;
  private readonly names: Permutation;
  /** Recently generated companies; large employers come up for most people. Bounded, never the whole directory. */
  private readonly recent = new Map<number, Company>();

  constructor(
    seed: number,
    readonly count: number,
    private readonly staffOf: (index: number) => number,
  ) {
    if (count - HARD_CASE_COMPANIES.length > NAME_COMBINATIONS) {
      throw new Error(`at most ${NAME_COMBINATIONS + HARD_CASE_COMPANIES.length} companies have distinct names`);
    }
    this.key = hash2(seed, hashString('company'));
    this.names = new Permutation(NAME_COMBINATIONS, hash2(this.key, 1));
  }

  get(index: number): Company {
    let company = this.recent.get(index);
    if (company === undefined) {
      company = this.generate(index);
      if (this.recent.size >= RECENT_COMPANIES) this.recent.delete(this.recent.keys().next().value!);
      this.recent.set(index, company);
    }
    return company;
  }

  private generate(index: number): Company {
    if (!(index >= 0 && index < this.count)) throw new RangeError(`no company ${index}`);
    const rng = new Rng(hash2(this.key, index));
    const staff = this.staffOf(index);
    const headcount = staff * HEADCOUNT_SCALE - rng.int(0, HEADCOUNT_SCALE - 1);
    const founded = rng.int(1950, 2023);
    const emailPattern = rng.pick(EMAIL_PATTERNS);
    const catchAll = rng.chance(0.08);
    const hard = HARD_CASE_COMPANIES[index];
    const core = hard ? '' : this.coreName(index);
    const suffix = hard ? '' : rng.pick(COMPANY_NAME_SUFFIXES);
    const tld = rng.pick(TLDS);
    const domain = hard ? hard.domain : core.toLowerCase() + tld;
    const secondDomain = !hard && rng.chance(0.12) ? core.toLowerCase() + (tld === '.com' ? '.io' : '.com') : undefined;
    // One literal with every field, no spreads: V8 keeps it a fast object (spreads cost 10x here).
    return {
      index,
      id: `co_${index}`,
      name: hard ? hard.name : suffix ? `${core} ${suffix}` : core,
      domain,
      domains: secondDomain ? [domain, secondDomain] : [domain],
      linkedinUrl: `https://www.linkedin.com/company/${hard ? hard.slug : suffix ? `${core.toLowerCase()}-${suffix.toLowerCase()}` : core.toLowerCase()}`,
      industry: hard ? hard.industry : rng.pick(INDUSTRIES),
      city: hard ? CITY_BY_NAME.get(hard.city)! : pickCity(rng),
      staff,
      headcount,
      sizeBand: SIZE_BANDS.find((band) => headcount <= band.max)!.label,
      founded,
      emailPattern,
      acceptsAllMail: !hard && catchAll,
      profileSpelling: hard?.profileSpelling,
      traits: hard?.traits ?? NO_TRAITS,
    };
  }

  /**
   * Exact lookup as a people database does it: the whole name, case and punctuation aside; a
   * generated company also answers to its name without its suffix ("Karitex" for "Karitex Labs").
   */
  indexByName(name: string): number | undefined {
    const normalized = normalizeName(name);
    const hard = HARD_BY_NAME.get(normalized);
    if (hard !== undefined) return hard;
    const [core, ...rest] = normalized.split(' ');
    const index = core === undefined ? undefined : this.indexByCore(core);
    if (index === undefined) return undefined;
    return rest.length === 0 || normalizeName(this.get(index).name) === normalized ? index : undefined;
  }

  indexByDomain(text: string): number | undefined {
    const domain = domainOf(text);
    const hard = HARD_BY_DOMAIN.get(domain);
    if (hard !== undefined) return hard;
    const index = this.indexByCore(domain.replace(/\.[a-z]+$/, ''));
    return index !== undefined && this.get(index).domains.includes(domain) ? index : undefined;
  }

  indexByLinkedInUrl(url: string): number | undefined {
    const match = /linkedin\.com\/company\/([a-z0-9-]+)/.exec(url.toLowerCase());
    if (!match) return undefined;
    const slug = match[1]!;
    const hard = HARD_BY_SLUG.get(slug);
    if (hard !== undefined) return hard;
    const index = this.indexByCore(slug.split('-')[0]!);
    return index !== undefined && this.get(index).linkedinUrl.toLowerCase().endsWith(`/company/${slug}`)
      ? index
      : undefined;
  }

  /**
   * The companies a search's company filters name, each identifier looked up exactly; those that
   * resolve to nothing drop out. Undefined when no company filter is given at all.
   */
  indexesNamedBy(filters: {
    domains?: readonly string[];
    names?: readonly string[];
    linkedinUrls?: readonly string[];
  }): number[] | undefined {
    const { domains = [], names = [], linkedinUrls = [] } = filters;
    if (!filters.domains && !filters.names && !filters.linkedinUrls) return undefined;
    return [
      ...domains.map((domain) => this.indexByDomain(domain)),
      ...names.map((name) => this.indexByName(name)),
      ...linkedinUrls.map((url) => this.indexByLinkedInUrl(url)),
    ].filter((index) => index !== undefined);
  }

  /** A company by whichever identifier the text is: a LinkedIn company URL, a domain or a name. */
  indexByIdentifier(text: string): number | undefined {
    if (text.includes('linkedin.com/')) return this.indexByLinkedInUrl(text);
    return (text.includes('.') ? this.indexByDomain(text) : undefined) ?? this.indexByName(text);
  }

  /**
   * How a public-web search matches a company: any company whose name (or the way its staff write
   * it) contains the query with spaces and punctuation removed, or whose domain it is. "acme"
   * finds GoAcme and Acmetrics too; that is the looseness the waterfall's verification is for.
   * Generated names are distinct syllable strings, so only hard-case names can contain each other.
   */
  indexesMatchingLoosely(text: string): number[] {
    const key = compact(text);
    if (key === '') return [];
    const found = new Set<number>();
    HARD_CASE_COMPANIES.forEach((company, i) => {
      if (compact(company.name).includes(key) || compact(company.profileSpelling ?? '').includes(key)) found.add(i);
    });
    const exact = this.indexByIdentifier(text);
    if (exact !== undefined) found.add(exact);
    return [...found].sort((a, b) => a - b);
  }

  private coreName(index: number): string {
    const combination = this.names.forward(index - HARD_CASE_COMPANIES.length);
    const tails = NAME_TAILS.length;
    const middles = NAME_MIDDLES.length;
    return (
      NAME_HEADS[Math.floor(combination / (middles * tails))]! +
      NAME_MIDDLES[Math.floor(combination / tails) % middles]! +
      NAME_TAILS[combination % tails]!
    );
  }

  private indexByCore(core: string): number | undefined {
    const head = HEADS.get(core.slice(0, 2));
    const middle = MIDDLES.get(core.slice(2, 4));
    const tail = TAILS.get(core.slice(4));
    if (head === undefined || middle === undefined || tail === undefined) return undefined;
    const combination = (head * NAME_MIDDLES.length + middle) * NAME_TAILS.length + tail;
    const index = this.names.inverse(combination) + HARD_CASE_COMPANIES.length;
    return index < this.count ? index : undefined;
  }
}

/** A city drawn by population weight. */
function pickCity(rng: Rng): City {
  let ticket = rng.next() * CITY_WEIGHT_TOTAL;
  for (const city of CITIES) {
    ticket -= city.weight;
    if (ticket < 0) return city;
  }
  return CITIES[CITIES.length - 1]!;
}

export function cityByName(name: string): City | undefined {
  return CITY_BY_NAME.get(name);
}
