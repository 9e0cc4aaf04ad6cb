import type { WaterfallDeclaration } from './declaration';

/** People search: the two people databases, then the public-web and LinkedIn-profile searches. */
export const peopleSearch: WaterfallDeclaration = {
  tool: 'people_search',
  module: 'search',
  description:
    'People search waterfall: people databases in order, then public-web people search and LinkedIn profile search when the query names a company; only real results are billed',
  chain: ['pplgraph.search', 'prospectdb.search', 'webscout.search', 'linkscan.search'],
};

/**
 * The enrichment waterfalls (spec "Enrichment waterfalls"), called with POST /tools/{waterfall} or
 * POST /enrich/{capability}. The waterfall service walks its own copy of each chain (decision 0018);
 * the spec suite checks that the two list the same steps (test/spec/enrichment-caps.test.ts).
 */
const ENRICH_CALL =
  'Body: payload (one row) or rows (up to 100 row objects, e.g. name, linkedin_url, company_domain, company_name), exclusive; dry_run prices it. Each row stops at its first real hit and only that step is billed; misses cost 0.';

export const enrichmentWaterfalls: readonly WaterfallDeclaration[] = [
  {
    tool: 'email_enrichment',
    module: 'enrich',
    description: `Work email waterfall: fills email, accepted only at the current employer (company_match, company_match_basis). ${ENRICH_CALL}`,
    chain: ['mailfinder.find', 'bulkmail.submit', 'reachout.submit'],
  },
  {
    tool: 'personal_email',
    module: 'enrich',
    description: `Personal email waterfall: fills personal_email; corporate, other-employer and undeliverable addresses are dropped at 0; every offered address is validated by verimail.verify, billed once per address. ${ENRICH_CALL}`,
    chain: ['persona.lookup', 'homebase.lookup'],
  },
  {
    tool: 'linkedin_profile',
    module: 'enrich',
    description: `LinkedIn profile waterfall: fills profile (experience newest first, with duration_months); a profile without dated experience is a free miss, someone else's profile ends the row with identity_mismatch. ${ENRICH_CALL}`,
    chain: ['profilely.profile', 'litepro.enrich'],
  },
  {
    tool: 'phone_enrichment',
    module: 'enrich',
    description: `Mobile phone waterfall: fills phone. ${ENRICH_CALL}`,
    chain: ['dialbook.find', 'ringdirect.submit'],
  },
];

/** Every waterfall the catalog lists, after the data providers. */
export const WATERFALLS: readonly WaterfallDeclaration[] = [peopleSearch, ...enrichmentWaterfalls];
