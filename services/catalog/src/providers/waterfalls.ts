import type { WaterfallDeclaration } from './declaration';

/** People search: the two people databases, then the public-web and LinkedIn-profile searches. */
export const peopleSearch: WaterfallDeclaration = {
  tool: 'people_search',
  module: 'search',
  description:
    'People search waterfall: people databases in order, then public-web people search and LinkedIn profile search when the query names a company; only real results are billed',
  chain: ['pplgraph.search', 'prospectdb.search', 'webscout.search', 'linkscan.search'],
};

/** Every waterfall the catalog lists, after the data providers. */
export const WATERFALLS: readonly WaterfallDeclaration[] = [peopleSearch];
