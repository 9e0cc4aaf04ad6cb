import type { OperationDoc, OperationGroup } from '../operation-docs';

/** The four enrichment waterfalls sold as tools, and the search one (spec "Tools", last row). */
const ENRICHMENT_WATERFALLS = ['email_enrichment', 'personal_email', 'linkedin_profile', 'phone_enrichment'];

/** A work-email lookup: the method the examples call, free to describe and free as a dry run. */
export const EXAMPLE_METHOD = { tool: 'mailfinder', method: 'find' } as const;

/** One person to enrich, as a row or a payload carries it. */
export const EXAMPLE_PERSON = {
  first_name: 'Ada',
  last_name: 'Lovelace',
  company_domain: 'acme.com',
  company_name: 'Acme',
} as const;

const describeWaterfall = (name: string): [string, OperationDoc] => [
  `GET /tools/${name}`,
  {
    summary: `Describe the ${name} waterfall`,
    spec: 'Tools, GET /tools/{tool}',
    does: `The ${name} waterfall's chain of provider steps, each with its description and price per hit. Free.`,
  },
];

const callEnrichmentWaterfall = (name: string): [string, OperationDoc] => [
  `POST /tools/${name}`,
  {
    summary: `Run the ${name} waterfall as a tool`,
    spec: 'Tools, POST /tools/{waterfall}; Enrichment waterfalls, rules 1–9',
    does:
      `The ${name} enrichment waterfall on one \`payload\` row or up to 100 \`rows\`: the same run and answer ` +
      'as POST /enrich/{capability}. Only a hitting step is billed; `dry_run: true` prices the chain and spends nothing.',
    body: { rows: [EXAMPLE_PERSON], dry_run: true },
  },
];

export const tools: OperationGroup = {
  tag: 'Tools',
  about: 'The catalog of data-provider tools, their contracts and prices, and single paid tool calls.',
  operations: {
    'GET /tools': {
      summary: 'List the tools',
      spec: 'Tools, GET /tools',
      does:
        'Every provider tool and waterfall with its methods and their prices; `filter` narrows by tool, kind, ' +
        'module or method name. Free.',
      query: { filter: 'email' },
    },
    'GET /tools/{tool}': {
      summary: "Describe a tool's methods",
      spec: 'Tools, GET /tools/{tool}',
      does:
        "A tool's methods with their inputs and prices; a flat name such as `<provider>_search_people` " +
        'answers the resolved method. Free.',
      params: { tool: EXAMPLE_METHOD.tool },
    },
    ...Object.fromEntries(['people_search', ...ENRICHMENT_WATERFALLS].map(describeWaterfall)),
    'GET /tools/{tool}/{method}': {
      summary: "Read a method's contract",
      spec: 'Resources, "Tool contract"; Tools, GET /tools/{tool}/{method}',
      does: "The method's inputs (names, types, which are required), its price and capabilities. Free.",
      params: EXAMPLE_METHOD,
    },
    'POST /tools/{tool}/{method}': {
      summary: 'Call a tool method',
      spec: 'Tools, rules 1–5',
      does:
        'Calls one provider method with `payload` (keys are its parameter names) or `args`/`kwargs`. Billed per ' +
        "the method's cost unit; a paid answer with table rows is stored as a dataset (`_meta.dataset_id`). " +
        '`dry_run: true` answers `_meta.would_charge_credits` and the resolved arguments without charging.',
      params: EXAMPLE_METHOD,
      body: { payload: { first_name: 'Ada', last_name: 'Lovelace', domain: 'acme.com' }, dry_run: true },
    },
    'POST /tools/people_search': {
      summary: 'Run people search as a tool',
      spec: 'Tools, POST /tools/{waterfall}; Search, rules 1–11',
      does:
        'The people search waterfall with its filters in `payload`: the same search and answer as ' +
        'POST /search/people_search. `dry_run: true` lists the steps that would run and their worst-case price.',
      body: { payload: { titles: ['Software Engineer'], locations: ['Berlin'], limit: 5 }, dry_run: true },
    },
    ...Object.fromEntries(ENRICHMENT_WATERFALLS.map(callEnrichmentWaterfall)),
  },
};
