import { defineProvider } from './define';
import { text } from './json-schema';

const MAX_RESULTS = 10;

/** WebScout: a public-web people search anchored on a company, billed per request. */
export const webscout = defineProvider('webscout', {
  description: 'WebScout public-web people search: people at a company, with structured work history',
  methods: [
    {
      name: 'search',
      description: 'People at a company (matched loosely), narrowed by title, location, seniority or keywords',
      http: 'POST',
      path: '/v2/search',
      parameters: [
        { name: 'company', type: 'string', required: true, description: 'employer name or domain', schema: text },
        { name: 'title', type: 'string', description: 'job title', schema: text },
        { name: 'location', type: 'string', description: 'free text; a city brings its whole metro', schema: text },
        { name: 'seniority', type: 'string', description: 'e.g. senior, director, vp', schema: text },
        { name: 'keywords', type: 'string', description: 'keywords', schema: text },
        {
          name: 'min_experience_years',
          type: 'integer',
          description: 'years of experience at least',
          schema: { minimum: 0, maximum: 60 },
        },
        {
          name: 'max_results',
          type: 'integer',
          description: `people wanted (default ${MAX_RESULTS})`,
          schema: { minimum: 1, maximum: MAX_RESULTS },
        },
      ],
      cost: { unit: 'call', millicredits: 1_000, note: 'each request, found or not' },
      rows: { path: ['people'], countParameter: 'max_results', defaultCount: MAX_RESULTS, maxCount: MAX_RESULTS },
      capabilities: {
        filters: [
          'company_names',
          'company_domains',
          'company_linkedin_urls',
          'titles',
          'locations',
          'seniority',
          'keywords',
          'min_experience_years',
        ],
        location_tokens: 'free_text',
        company_match: 'loose',
        max_results: MAX_RESULTS,
        // One company a request, matched loosely: its rows are verified against the requested company.
        company_anchor: { to: 'company', as: 'first' },
        bind: {
          titles: { to: 'title', as: 'first' },
          locations: { to: 'location', as: 'first' },
          seniority: {
            to: 'seniority',
            as: 'first',
            values: {
              entry: 'entry',
              senior: 'senior',
              manager: 'manager',
              director: 'director',
              vp: 'vp',
              c_suite: 'c suite',
            },
          },
          keywords: { to: 'keywords', as: 'text' },
          min_experience_years: { to: 'min_experience_years', as: 'value' },
        },
        paging: { style: 'none', size: 'max_results' },
        structured_history: true,
      },
      person: {
        name: ['name'],
        title: ['current', 'title'],
        company: ['current', 'employer'],
        linkedinUrl: ['profile_url'],
        location: ['location'],
        workHistory: { path: ['work_history'], company: ['employer'], title: ['title'] },
      },
    },
  ],
});
