import type { ProviderDeclaration } from './declaration';
import { linkedinUrlParameter } from './json-schema';

/** DialBook: a synchronous mobile-phone finder by LinkedIn URL, billed per number found. */
export const dialbook: ProviderDeclaration = {
  tool: 'dialbook',
  module: 'phone_finder',
  description: 'DialBook: the mobile phone behind a LinkedIn profile',
  sandboxPath: '/dialbook',
  auth: { header: 'X-Dialbook-Key', credential: 'dialbook', sandboxKey: 'sbx-dialbook-77c3aa' },
  rate: { perSecond: 5, burst: 10 },
  methods: [
    {
      name: 'find',
      description: 'Mobile phone numbers of the person behind a LinkedIn URL',
      http: 'GET',
      path: '/v1/phone',
      parameters: [linkedinUrlParameter],
      cost: { unit: 'hit', millicredits: 3_000, note: 'each lookup that returns a number; a miss is free' },
      hitPath: ['phones'],
      capabilities: { lookup_by: [['linkedin_url']] },
    },
  ],
};
