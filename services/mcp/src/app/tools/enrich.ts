import type { Caller } from '@rde/platform';
import { publicJson, publicRoutes, publicSchemas } from '@rde/proto';
import type { ToolClients } from '../../clients';
import { jsonBytes, parseJson } from '../../domain/json';
import { argumentCheck } from '../arguments';
import { WATERFALL_DEADLINE_MS, type McpTool } from './tool';

const { ENRICH_CAPABILITIES, enrichToolBody, jobParams, resumeBody } = publicSchemas;
const { ROUTES, filled } = publicRoutes;

const TITLES: Record<string, string> = {
  email_enrichment: 'Find work emails',
  personal_email: 'Find personal emails',
  linkedin_profile: 'Fill LinkedIn profiles',
  phone_enrichment: 'Find mobile phones',
};

/**
 * The four enrichment waterfalls, each as POST /tools/{capability}: one row (payload) or up to 100
 * (rows), charged per hit by the waterfall's Enrich, exactly as over REST (replay included).
 */
const enrichmentTools: McpTool[] = ENRICH_CAPABILITIES.map((capability) => ({
  name: capability,
  title: TITLES[capability],
  description:
    `The ${capability} enrichment waterfall, charged as POST ${filled(ROUTES.enrichTool, { capability })}: payload (one row) or ` +
    'rows (up to 100, answered within seconds with _meta.run_id and status running; an identical batch within ' +
    '15 minutes is replayed at no charge). A step left still_enriching carries job_id and resume: read it with ' +
    'get_enrich_job. dry_run: true prices the call without a vendor call or a charge.',
  inputSchema: enrichToolBody,
  spends: true,
  async run(clients, caller, args, callId) {
    const { resultJson, meta } = await clients.waterfall.enrich(
      {
        capability,
        payloadJson: jsonBytes(args.payload),
        rowsJson: jsonBytes(args.rows),
        dryRun: args.dry_run === true,
        runId: callId,
      },
      { caller, deadlineMs: WATERFALL_DEADLINE_MS },
    );
    return { ...(parseJson(resultJson, {}) as object), _meta: publicJson.enrichMeta(meta!) };
  },
}));

const enrichJobTool: McpTool = {
  name: 'get_enrich_job',
  title: 'Read an enrich job',
  description:
    `A provider job a still_enriching step left open (GET ${ROUTES.enrichJob}), free: ` +
    'status pending, settled, failed or expired; once settled also charged, email and result.',
  inputSchema: jobParams,
  spends: false,
  run: (clients, caller, args) => enrichJob(clients, caller, args.provider as string, args.job_id as string),
};

export const ENRICH_TOOLS: readonly McpTool[] = [...enrichmentTools, enrichJobTool];

const checkResume = argumentCheck(resumeBody);

/**
 * A `still_enriching` step's resume through call_tool_method ({tool: "enrich_jobs", method:
 * <provider>, payload: {job_id}}), checked as POST /tools/enrich_jobs/{provider} checks its body.
 */
export function readEnrichJob(clients: ToolClients, caller: Caller, args: Record<string, unknown>) {
  checkResume({ payload: args.payload });
  return enrichJob(clients, caller, args.method as string, (args.payload as { job_id: string }).job_id);
}

async function enrichJob(clients: ToolClients, caller: Caller, provider: string, jobId: string) {
  const { jobJson } = await clients.waterfall.getEnrichJob({ provider, jobId }, { caller });
  return parseJson(jobJson, {}) as Record<string, unknown>;
}
