import { HARD_CASE_COMPANIES } from '../../sandbox/src/domain/hard-cases';
import { matchesCompanyDomain, matchesCompanyName, verifiesCompany } from '../src/domain/search/company-match';

/** Rule 7 of the spec's Search section, with every example it gives and the sandbox's hard cases. */
describe('company verification', () => {
  test.each([
    // The spec's examples.
    ['Acme Corp', 'Acme Corporation', true, 'a whole-word prefix of the result matches'],
    ['acme', 'GoAcme', false, 'a single word a longer name merely contains does not'],
    ['acme', 'Acmetrics', false, 'a single word a longer name merely starts with does not'],
    ['Acme Inc', 'ACME-Inc', true, 'a spelling variant matches'],
    ['Acme Inc', 'Acme Inc', true, 'the same name matches'],
    ['ACME-Inc', 'Acme Inc.', true, 'case, dashes and dots do not matter'],
    // Around them.
    ['Acme', 'Acme', true, 'the same one word'],
    ['Acme', 'Acme Labs', true, 'one whole word that begins the result'],
    ['Acme Inc', 'Acme', true, 'the request names the legal form the result drops'],
    ['Acme Corporation', 'Acme Corp', false, 'a longer request is not a prefix of a shorter result'],
    ['Acme Corp', 'Acme Inc', false, 'two different legal forms are two companies'],
    ['Acme Labs', 'Acme Corp', false, 'a different second word'],
    ['Golden Gate', 'Golden Gate Analytics', true, 'two whole words that begin the result'],
    ['Gate Analytics', 'Golden Gate Analytics', false, 'words in the middle are not a prefix'],
    ['Hooli', 'Hoolie', false, 'one word is never a prefix of another'],
    ['AT&T', 'AT and T', true, '& reads as and'],
  ])('%s vs %s → %s (%s)', (requested, result, expected, _why) => {
    expect(matchesCompanyName(requested, result)).toBe(expected);
  });

  test.each<[string, string, string | undefined, boolean, string]>([
    ['acmelabs.com', 'Acme Labs', undefined, true, 'a domain brand is the name run together'],
    ['https://www.acmelabs.com/', 'Acme Labs', undefined, true, 'a website is read as its domain'],
    ['acme.com', 'Acme Labs', undefined, false, 'a shorter brand is another company'],
    ['vandelay.com', 'Vandelay Industries', undefined, true, 'a domain may leave out a generic last word'],
    ['acmeinc.com', 'Acme Inc', undefined, true, 'the legal form is part of the run-together name'],
    ['globex.com', 'Initech', 'initech.com', false, 'the result’s own domain decides first'],
    ['initech.com', 'Initech Software', 'https://www.initech.com', true, 'the result’s domain has the brand'],
  ])('domain %s vs %s (%s) → %s (%s)', (domain, company, resultDomain, expected, _why) => {
    expect(matchesCompanyDomain(domain, company, resultDomain)).toBe(expected);
  });

  test('the sandbox hard-case companies verify as themselves and never as the one-word look-alikes', () => {
    for (const company of HARD_CASE_COMPANIES) {
      const spelled = company.profileSpelling ?? company.name;
      expect(verifiesCompany({ names: [company.name], domains: [] }, spelled)).toBe(true);
      expect(verifiesCompany({ names: [], domains: [company.domain] }, company.name)).toBe(true);
    }
    const acme = { names: ['acme'], domains: [] };
    expect(['GoAcme', 'Acmetrics'].filter((name) => verifiesCompany(acme, name))).toEqual([]);
    expect(verifiesCompany({ names: ['Acme Corp'], domains: [] }, 'Acme Corporation')).toBe(true);
  });

  test('a row without a company never verifies', () => {
    expect(verifiesCompany({ names: ['Acme'], domains: ['acme.com'] })).toBe(false);
  });
});
