import { publicJson, publicRoutes, publicSchemas } from '@rde/proto';
import { jsonBytes } from '../../domain/json';
import type { McpTool } from './tool';

/** POST /qualify as a tool: the same body, the same refusals, the same answer (free, decision 0030). */
export const QUALIFY_TOOLS: readonly McpTool[] = [
  {
    name: 'qualify_candidates',
    title: 'Score candidates against a job spec',
    description:
      'Ranks candidates (rows from search or linkedin_profile) against a job spec on a 0 to 10 scale, as ' +
      `POST ${publicRoutes.ROUTES.qualify}: min_score keeps those at or above it; a batch of title-only rows is refused ` +
      '(422 no_work_history) unless allow_thin_profiles; async: true scores into a new dataset in the ' +
      'background (poll get_dataset for enrich_status). Free.',
    inputSchema: publicSchemas.qualifyBody,
    spends: false,
    refuse: publicSchemas.qualifyRefusal,
    async run(clients, caller, args) {
      const answer = await clients.waterfall.qualify(
        {
          jobSpec: args.job_spec as string,
          candidatesJson: jsonBytes(args.candidates),
          minScoreJson: jsonBytes(args.min_score),
          allowThinProfiles: args.allow_thin_profiles === true,
          runAsync: args.async === true,
        },
        { caller },
      );
      return publicJson.qualified(answer, args.async === true);
    },
  },
];
