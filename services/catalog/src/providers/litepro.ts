import { defineProvider } from './define';
import { linkedinUrlParameter } from './json-schema';

/** LitePro: a cheap profile enricher by LinkedIn URL, billed per profile returned (dated or not). */
export const litepro = defineProvider('litepro', {
  description: 'LitePro: the profile behind a LinkedIn URL; experience is often undated',
  methods: [
    {
      name: 'enrich',
      description: 'The profile behind a LinkedIn URL (profile: null when unknown)',
      http: 'POST',
      path: '/v1/enrich',
      parameters: [linkedinUrlParameter],
      cost: { unit: 'hit', millicredits: 1_000, note: 'each non-null profile, dated or not; a miss is free' },
      hitPath: ['profile'],
      capabilities: { lookup_by: [['linkedin_url']] },
    },
  ],
});
