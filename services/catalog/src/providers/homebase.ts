import { defineProvider } from './define';
import { text } from './json-schema';

/** HomeBase: a personal-email finder by LinkedIn URL or by full name and company, billed per match. */
export const homebase = defineProvider('homebase', {
  description: 'HomeBase: the personal email of a person, by LinkedIn URL or by full name and company',
  methods: [
    {
      name: 'lookup',
      description: 'The personal email of a person: give linkedin_url, or full_name and company',
      http: 'GET',
      path: '/lookup',
      parameters: [
        { name: 'linkedin_url', type: 'string', description: 'LinkedIn profile URL', schema: text },
        { name: 'full_name', type: 'string', description: 'full name (with company)', schema: text },
        { name: 'company', type: 'string', description: 'current employer (with full_name)', schema: text },
      ],
      // linkedin_url, or both full_name and company: (url or name) and (url or company).
      oneOfRequired: [
        ['linkedin_url', 'full_name'],
        ['linkedin_url', 'company'],
      ],
      cost: { unit: 'hit', millicredits: 1_000, note: 'each lookup with match: true; a miss is free' },
      hitPath: ['match'],
      capabilities: { lookup_by: [['linkedin_url'], ['full_name', 'company']] },
    },
  ],
});
