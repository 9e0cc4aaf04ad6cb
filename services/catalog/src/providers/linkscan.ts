import { defineProvider } from './define';
import { text } from './json-schema';

const MAX_COUNT = 10;

/** LinkScan: a LinkedIn profile search returning unstructured rows to verify, billed per request. */
export const linkscan = defineProvider('linkscan', {
  description: 'LinkScan LinkedIn profile search: title line, link and snippet per profile; rows need verification',
  methods: [
    {
      name: 'search',
      description: 'LinkedIn profiles matching a company, title or keywords (at least one), and a location',
      http: 'GET',
      path: '/v1/profiles',
      parameters: [
        { name: 'company', type: 'string', description: 'employer, matched loosely', schema: text },
        { name: 'title', type: 'string', description: 'job title', schema: text },
        { name: 'location', type: 'string', description: 'free text', schema: text },
        { name: 'keywords', type: 'string', description: 'keywords', schema: text },
        {
          name: 'count',
          type: 'integer',
          description: `profiles wanted (default ${MAX_COUNT})`,
          schema: { minimum: 1, maximum: MAX_COUNT },
        },
        {
          name: 'start',
          type: 'integer',
          description: 'offset of the first profile',
          schema: { minimum: 0, maximum: 990 },
        },
      ],
      oneOfRequired: [['company', 'title', 'keywords']],
      cost: { unit: 'call', millicredits: 1_000, note: 'each request, found or not' },
      rows: { path: ['results'], countParameter: 'count', defaultCount: MAX_COUNT, maxCount: MAX_COUNT },
      capabilities: {
        filters: ['company_names', 'titles', 'locations', 'keywords'],
        location_tokens: 'free_text',
        company_match: 'loose',
        max_results: MAX_COUNT,
        verification_required: true,
        verification_reason: 'LinkedIn profile search rows come from a stale index: confirm the current employer',
        company_anchor: { to: 'company', as: 'first' },
        bind: {
          titles: { to: 'title', as: 'first' },
          locations: { to: 'location', as: 'first' },
          keywords: { to: 'keywords', as: 'text' },
        },
        paging: { style: 'offset', size: 'count', offset: 'start' },
      },
      person: { titleLine: { path: ['title'], snippet: ['snippet'] }, linkedinUrl: ['link'] },
    },
  ],
});
