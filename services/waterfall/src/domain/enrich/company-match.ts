/**
 * Employer identity for email rules: what counts as a company's own domain, and whether a company
 * name and a domain name the same employer.
 */

/** Hosts that are not an employer's own domain: social networks, link pages and site builders. */
const NOT_AN_EMPLOYER_DOMAIN = [
  'linkedin.com',
  'facebook.com',
  'instagram.com',
  'twitter.com',
  'x.com',
  'youtube.com',
  'github.com',
  'medium.com',
  'linktr.ee',
  'wixsite.com',
  'wix.com',
  'squarespace.com',
  'weebly.com',
  'wordpress.com',
  'blogspot.com',
  'godaddysites.com',
  'webflow.io',
  'carrd.co',
  'sites.google.com',
  'example.com',
];

/** A domain-shaped host: labels of letters, digits and hyphens, and a letter TLD. */
const DOMAIN = /^(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z]{2,}$/;

/**
 * The employer domain a row's company field gives, or undefined when it gives none: a placeholder
 * (`n/a`, `-`, `none`), a social or site-builder link, or anything not shaped like a domain.
 * URLs are reduced to their host without `www.`.
 */
export function employerDomain(text: string): string | undefined {
  const host = hostOf(text.trim().toLowerCase());
  if (host === undefined || !DOMAIN.test(host)) return undefined;
  const builtOn = NOT_AN_EMPLOYER_DOMAIN.some((blocked) => host === blocked || host.endsWith(`.${blocked}`));
  return builtOn ? undefined : host;
}

function hostOf(text: string): string | undefined {
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//.test(text) ? text : `http://${text}`;
  try {
    return new URL(withScheme).hostname.replace(/^www\./, '');
  } catch {
    return undefined;
  }
}

/** The domain of an address, lower-cased; undefined when it is not an address. */
export function emailDomain(address: string): string | undefined {
  const at = address.lastIndexOf('@');
  if (at <= 0 || at === address.length - 1) return undefined;
  return address
    .slice(at + 1)
    .trim()
    .toLowerCase();
}

/** Whether an address is at the domain or one of its subdomains. */
export function isAtDomain(address: string, domain: string): boolean {
  const at = emailDomain(address);
  return at !== undefined && (at === domain || at.endsWith(`.${domain}`));
}

const LEGAL_SUFFIXES = new Set([
  'inc',
  'incorporated',
  'corp',
  'corporation',
  'co',
  'company',
  'llc',
  'ltd',
  'limited',
  'gmbh',
  'ag',
  'sa',
  'plc',
  'bv',
  'group',
]);

/** Words that describe a business rather than name it: a domain often leaves them out (kololy.com for Kololy Technologies). */
const DESCRIPTORS = new Set([
  ...LEGAL_SUFFIXES,
  'labs',
  'systems',
  'technologies',
  'technology',
  'health',
  'analytics',
  'software',
  'solutions',
  'holdings',
  'industries',
]);

/** A company name as lower-case words, accents dropped, legal suffixes kept apart. */
function nameWords(name: string): string[] {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

/**
 * Whether a company name and a domain plausibly name the same employer: the domain's name label
 * (before its TLD) spells the whole name (`acmelabs.com` for Acme Labs), the name without its
 * legal suffix or descriptive words (`acme.com` for ACME-Inc, `kololy.com` for Kololy
 * Technologies), or its initials (`gga.com` for Golden Gate Analytics). A label that merely
 * contains one word of the name (`goacme.com` for Acme) does not match.
 */
export function nameMatchesDomain(name: string, domain: string): boolean {
  const labels = domain.toLowerCase().split('.');
  const label = (labels.length > 1 ? labels[labels.length - 2] : labels[0])!.replace(/-/g, '');
  const words = nameWords(name);
  const core = words.filter((word, i) => i === 0 || !LEGAL_SUFFIXES.has(word));
  const brand = words.filter((word, i) => i === 0 || !DESCRIPTORS.has(word));
  const spellings = [
    words.join(''),
    core.join(''),
    brand.join(''),
    core.length > 1 ? core.map((w) => w[0]).join('') : '',
  ];
  return spellings.some((spelling) => spelling.length > 0 && spelling === label);
}

/** Whether two company names are the same employer, ignoring case, punctuation and legal suffixes. */
export function sameCompanyName(a: string, b: string): boolean {
  const core = (name: string) =>
    nameWords(name)
      .filter((word, i) => i === 0 || !LEGAL_SUFFIXES.has(word))
      .join('');
  return core(a) !== '' && core(a) === core(b);
}
