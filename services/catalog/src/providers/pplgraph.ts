import { defineProvider } from './define';
import { closedObject, text, textList } from './json-schema';

const LEVELS = ['entry', 'senior', 'manager', 'director', 'vp', 'c_suite'];
const COMPANY_SIZES = ['1-10', '11-50', '51-200', '201-500', '501-1000', '1001-5000', '5001-10000', '10001+'];

/** PeopleGraph: a people database searched by filters, billed per returned profile. */
export const pplgraph = defineProvider('pplgraph', {
  description: 'PeopleGraph people database: profiles by title, location, skills, seniority, company and firmographics',
  methods: [
    {
      name: 'search',
      description: 'People matching every filter in `query`, up to 100 profiles a call; `scroll_token` pages on',
      http: 'POST',
      path: '/v1/people/search',
      parameters: [
        {
          name: 'query',
          type: 'object',
          required: true,
          description: 'filters, all of which must match (at least one)',
          schema: closedObject(
            {
              job_title: textList,
              location: { ...textList, description: 'place names: city, region or country' },
              skills: textList,
              keywords: text,
              job_title_levels: { type: 'array', items: { enum: LEVELS }, minItems: 1 },
              job_company_website: textList,
              job_company_name: textList,
              job_company_linkedin_url: textList,
              job_department: { ...textList, description: 'accepted but not applied by the vendor' },
              min_experience_years: { type: 'integer', minimum: 0, maximum: 60 },
              months_in_role: closedObject({
                gte: { type: 'integer', minimum: 0 },
                lte: { type: 'integer', minimum: 0 },
              }),
              job_company_size: { type: 'array', items: { enum: COMPANY_SIZES }, minItems: 1 },
              job_company_industry: textList,
            },
            { minProperties: 1 },
          ),
        },
        {
          name: 'size',
          type: 'integer',
          description: 'profiles wanted (default 10)',
          schema: { minimum: 1, maximum: 100 },
        },
        {
          name: 'scroll_token',
          type: 'string',
          description: 'the previous answer’s scroll_token, for the next page',
          schema: { pattern: '^[0-9]+$' },
        },
      ],
      cost: { unit: 'record', millicredits: 1_000, note: 'each returned profile; an empty answer is free' },
      rows: { path: ['data'], countParameter: 'size', defaultCount: 10, maxCount: 100 },
      capabilities: {
        filters: [
          'titles',
          'locations',
          'skills',
          'keywords',
          'seniority',
          'company_domains',
          'company_names',
          'company_linkedin_urls',
          'min_experience_years',
          'months_in_role',
          'company_sizes',
          'industries',
        ],
        silently_ignores: ['departments'],
        location_tokens: 'place_name',
        company_match: 'exact',
        max_results: 100,
        // Where each search filter goes in the vendor's payload, and in what form.
        bind: {
          titles: { to: 'query.job_title', as: 'list' },
          locations: { to: 'query.location', as: 'list' },
          skills: { to: 'query.skills', as: 'list' },
          keywords: { to: 'query.keywords', as: 'text' },
          seniority: { to: 'query.job_title_levels', as: 'list' },
          company_domains: { to: 'query.job_company_website', as: 'list' },
          company_names: { to: 'query.job_company_name', as: 'list' },
          company_linkedin_urls: { to: 'query.job_company_linkedin_url', as: 'list' },
          departments: { to: 'query.job_department', as: 'list' },
          min_experience_years: { to: 'query.min_experience_years', as: 'value' },
          months_in_role: { to: 'query.months_in_role', as: 'value' },
          company_sizes: { to: 'query.job_company_size', as: 'list' },
          industries: { to: 'query.job_company_industry', as: 'list' },
        },
        paging: { style: 'cursor', size: 'size', cursor: 'scroll_token', next: ['scroll_token'] },
      },
      person: {
        name: ['full_name'],
        title: ['job_title'],
        company: ['job_company_name'],
        companyDomain: ['job_company_website'],
        linkedinUrl: ['linkedin_url'],
        location: ['location_name'],
        seniority: ['job_title_levels', '0'],
      },
    },
  ],
});
