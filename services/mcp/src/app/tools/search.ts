import { publicJson, publicRoutes, publicSchemas } from '@rde/proto';
import { jsonBytes, parseJson } from '../../domain/json';
import { WATERFALL_DEADLINE_MS, type McpTool } from './tool';

/** People search (spec "Search"): the waterfall's SearchPeople, as POST /search/people_search. */
export const SEARCH_TOOLS: readonly McpTool[] = [
  {
    name: 'search_people',
    title: 'Search people',
    description:
      `People search across the provider waterfall, charged as POST ${publicRoutes.filled(publicRoutes.ROUTES.search, { capability: 'people_search' })}: the same ` +
      'body (query or flat filters such as titles and company_names, limit, providers, dry_run, preview).',
    inputSchema: publicSchemas.searchBody,
    spends: true,
    async run(clients, caller, args, callId) {
      const { resultJson, meta } = await clients.waterfall.searchPeople(
        { bodyJson: jsonBytes(args), runId: callId },
        { caller, deadlineMs: WATERFALL_DEADLINE_MS },
      );
      return { ...(parseJson(resultJson, {}) as object), _meta: publicJson.searchMeta(meta!) };
    },
  },
];
