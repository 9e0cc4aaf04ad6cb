import { defineProvider } from './define';
import { linkedinUrlParameter } from './json-schema';

/** Persona: a personal-email finder by LinkedIn URL; a miss is its 404. Billed per hit. */
export const persona = defineProvider('persona', {
  description: 'Persona: personal emails of the person behind a LinkedIn URL',
  methods: [
    {
      name: 'lookup',
      description: 'Personal emails of the person behind a LinkedIn URL',
      http: 'POST',
      path: '/v1/person/emails',
      parameters: [linkedinUrlParameter],
      cost: { unit: 'hit', millicredits: 1_000, note: 'each lookup that returns an address; a miss is free' },
      hitPath: ['person', 'emails'],
      missOn404: true,
      capabilities: { lookup_by: [['linkedin_url']] },
    },
  ],
});
