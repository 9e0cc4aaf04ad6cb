/** Text normalisation shared by name lookups, title-word search and the vendors' matchers. */

/** Lower case, punctuation to single spaces: "ACME-Inc." → "acme inc". */
export function normalizeName(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

export function words(text: string): string[] {
  const normalized = normalizeName(text);
  return normalized === '' ? [] : normalized.split(' ');
}

/**
 * Letters and digits only: "Acme Labs" → "acmelabs", the form a brand domain is written in; also
 * email local parts and URL slugs from names ("O'Brien" → "obrien").
 */
export function compact(text: string): string {
  let compacted = COMPACTED.get(text);
  if (compacted === undefined) {
    compacted = text.toLowerCase().replace(/[^a-z0-9]/g, '');
    if (COMPACTED.size < COMPACTED_MAX) COMPACTED.set(text, compacted);
  }
  return compacted;
}

/** Names repeat across a million people: remember the first few thousand strings compacted. */
const COMPACTED = new Map<string, string>();
const COMPACTED_MAX = 8_192;

/** Whether every word of `phrase` is one of `haystack`'s words. */
export function hasAllWords(haystack: readonly string[], phrase: readonly string[]): boolean {
  return phrase.every((word) => haystack.includes(word));
}

/** A domain from an address, a URL or a bare domain: "https://www.Acme.com/x" → "acme.com". */
export function domainOf(text: string): string {
  const trimmed = text.trim().toLowerCase();
  const afterAt = trimmed.includes('@') ? trimmed.slice(trimmed.lastIndexOf('@') + 1) : trimmed;
  return afterAt
    .replace(/^[a-z]+:\/\//, '')
    .replace(/^www\./, '')
    .replace(/[/?#].*$/, '');
}
