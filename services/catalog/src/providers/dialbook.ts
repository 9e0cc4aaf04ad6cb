import { defineProvider } from './define';
import { linkedinUrlParameter } from './json-schema';

/** DialBook: a synchronous mobile-phone finder by LinkedIn URL, billed per number found. */
export const dialbook = defineProvider('dialbook', {
  description: 'DialBook: the mobile phone behind a LinkedIn profile',
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
});
