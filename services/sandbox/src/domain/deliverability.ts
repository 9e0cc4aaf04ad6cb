import { hash2, hashString, unit } from './hash';
import { addressAt } from './contact-details';
import type { Universe } from './universe';
import { FREE_MAIL_DOMAINS } from './person-vocabulary';

export interface Verdict {
  readonly result: 'deliverable' | 'undeliverable' | 'risky';
  readonly reason: 'accepted_email' | 'rejected_email' | 'invalid_domain' | 'invalid_syntax' | 'accept_all';
  readonly acceptAll: boolean;
  readonly free: boolean;
}

/** Share of free-mail addresses that are abandoned and bounce. */
const ABANDONED_FREE_MAIL = 0.12;
const ADDRESS = /^[a-z0-9._%+-]+@([a-z0-9-]+\.)+[a-z]{2,}$/;

/**
 * What a mail server would say about an address, decided by the universe alone:
 * - at a company: delivered only to a current employee's address (a mover's old address and a
 *   guessed pattern bounce); every address at a company with an undeliverable domain bounces;
 *   a catch-all company's addresses are "risky";
 * - at a free-mail domain: a fixed share, picked by the address's hash, is abandoned;
 * - any other domain does not exist.
 */
export function deliverability(universe: Universe, email: string): Verdict {
  const address = email.trim().toLowerCase();
  const domain = address.slice(address.lastIndexOf('@') + 1);
  const free = (FREE_MAIL_DOMAINS as readonly string[]).includes(domain);
  const verdict = (result: Verdict['result'], reason: Verdict['reason'], acceptAll = false): Verdict => ({
    result,
    reason,
    acceptAll,
    free,
  });
  if (!ADDRESS.test(address)) return verdict('undeliverable', 'invalid_syntax');
  if (free) {
    const abandoned = unit(hash2(universe.seedHash, hashString(address))) < ABANDONED_FREE_MAIL;
    return abandoned ? verdict('undeliverable', 'rejected_email') : verdict('deliverable', 'accepted_email');
  }
  const index = universe.companies.indexByDomain(domain);
  if (index === undefined) return verdict('undeliverable', 'invalid_domain');
  const company = universe.companies.get(index);
  if (company.traits.undeliverableDomain) return verdict('undeliverable', 'rejected_email');
  if (company.acceptsAllMail) return verdict('risky', 'accept_all', true);
  const atThisDomain = { ...company, domain };
  for (let k = 0; k < company.staff; k++) {
    const { first, last } = universe.nameOf(universe.employment.member(index, k));
    if (addressAt(atThisDomain, first, last) === address) return verdict('deliverable', 'accepted_email');
  }
  return verdict('undeliverable', 'rejected_email');
}
