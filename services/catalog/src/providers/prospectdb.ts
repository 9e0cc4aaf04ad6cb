import { defineProvider } from './define';
import { text, textList } from './json-schema';

const LEVELS = ['Entry', 'Senior', 'Manager', 'Director', 'VP', 'C-Level'];
const PAGE_SIZE = 25;

/** ProspectDB: a people database paged 25 at a time, billed per page that finds someone. */
export const prospectdb = defineProvider('prospectdb', {
  description: 'ProspectDB people database: people by title, metro, company, seniority, department and keywords',
  methods: [
    {
      name: 'search',
      description:
        'One page of people matching the filters (at least one); unknown parameters go to the vendor, which ignores them',
      http: 'GET',
      path: '/api/v1/people',
      parameters: [
        { name: 'title', type: 'array', description: 'job titles, any of', schema: { items: text, minItems: 1 } },
        {
          name: 'geo',
          type: 'array',
          description: 'metro codes (see the geo method), any of',
          schema: { items: text, minItems: 1 },
        },
        {
          name: 'company_domain',
          type: 'array',
          description: 'employer domains',
          schema: { items: text, minItems: 1 },
        },
        { name: 'company_name', type: 'array', description: 'employer names', schema: { items: text, minItems: 1 } },
        {
          name: 'seniority',
          type: 'array',
          description: 'seniority levels',
          schema: { items: { enum: LEVELS }, minItems: 1 },
        },
        { name: 'department', type: 'array', description: 'departments', schema: textList },
        { name: 'q', type: 'string', description: 'keywords', schema: text },
        {
          name: 'min_years',
          type: 'integer',
          description: 'accepted but not applied by the vendor',
          schema: { minimum: 0 },
        },
        { name: 'page', type: 'integer', description: 'page number (default 1)', schema: { minimum: 1, maximum: 400 } },
        {
          name: 'per_page',
          type: 'integer',
          description: `people a page (default ${PAGE_SIZE})`,
          schema: { minimum: 1, maximum: PAGE_SIZE },
        },
      ],
      cost: {
        unit: 'hit',
        millicredits: 1_000,
        note: 'each page that returns at least one person; an empty page is free',
      },
      acceptsVendorOptions: true,
      rows: { path: ['people'], countParameter: 'per_page', defaultCount: PAGE_SIZE, maxCount: PAGE_SIZE },
      hitPath: ['people'],
      capabilities: {
        filters: ['titles', 'locations', 'company_domains', 'company_names', 'seniority', 'keywords', 'departments'],
        silently_ignores: ['min_experience_years'],
        location_tokens: 'metro_code',
        // Place names become metro codes through the free geo method: `geos[].code` of `?q=<place>`.
        location_lookup: { method: 'geo', parameter: 'q', rows: ['geos'], code: 'code' },
        company_match: 'exact',
        page_size: PAGE_SIZE,
        bind: {
          titles: { to: 'title', as: 'list' },
          locations: { to: 'geo', as: 'list' },
          company_domains: { to: 'company_domain', as: 'list' },
          company_names: { to: 'company_name', as: 'list' },
          seniority: {
            to: 'seniority',
            as: 'list',
            values: {
              entry: 'Entry',
              senior: 'Senior',
              manager: 'Manager',
              director: 'Director',
              vp: 'VP',
              c_suite: 'C-Level',
            },
          },
          departments: { to: 'department', as: 'list' },
          keywords: { to: 'q', as: 'text' },
          min_experience_years: { to: 'min_years', as: 'value' },
        },
        paging: { style: 'page', size: 'per_page', page: 'page' },
      },
      person: {
        name: ['name'],
        title: ['title'],
        company: ['company', 'name'],
        companyDomain: ['company', 'website'],
        linkedinUrl: ['linkedin'],
        location: ['geo', 'city'],
        seniority: ['seniority'],
      },
    },
    {
      name: 'geo',
      description: 'The metro codes the search’s geo filter accepts, matching a name',
      http: 'GET',
      path: '/api/v1/geo',
      parameters: [
        { name: 'q', type: 'string', description: 'part of a metro or city name', schema: { maxLength: 100 } },
      ],
      cost: { unit: 'call', millicredits: 0, note: 'free' },
    },
  ],
});
