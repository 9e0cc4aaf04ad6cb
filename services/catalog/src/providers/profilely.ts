import { defineProvider } from './define';
import { text } from './json-schema';

/** Profilely: a profile enricher by LinkedIn URL with dated positions; a miss is its 404. Billed per hit. */
export const profilely = defineProvider('profilely', {
  description: 'Profilely: the profile behind a LinkedIn URL, with dated positions, education and skills',
  methods: [
    {
      name: 'profile',
      description: 'The profile behind a LinkedIn URL',
      http: 'GET',
      path: '/v1/profile',
      parameters: [{ name: 'url', type: 'string', required: true, description: 'LinkedIn profile URL', schema: text }],
      cost: { unit: 'hit', millicredits: 1_000, note: 'each profile returned; a miss is free' },
      hitPath: ['profile_url'],
      missOn404: true,
      capabilities: { lookup_by: [['url']] },
    },
  ],
});
