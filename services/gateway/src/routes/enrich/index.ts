import type { FastifyInstance } from 'fastify';
import type { Caller } from '@rde/platform';
import { publicJson, publicRoutes, publicSchemas } from '@rde/proto';
import { errorResponses } from '../../contract';
import type { GatewayDependencies } from '../../dependencies';
import {
  capabilityParams,
  ENRICH_CAPABILITIES,
  enrichBody,
  enrichResult,
  jobParams,
  jobRecord,
  resumeBody,
  resumeParams,
  toolBody,
} from './schemas';

const { ROUTES, filled, routerPath } = publicRoutes;
/** A one-row call may wait out a provider job's poll budget after its lookups: more than the default deadline. */
const ENRICH_DEADLINE_MS = 90_000;
/** Beyond the shared statuses (contract.ts): 402 when the balance cannot hold the rows' worst case. */
const responses = { 200: enrichResult, ...errorResponses(402) };

interface EnrichBody {
  rows?: unknown[];
  payload?: object;
  dry_run?: boolean;
  preview?: boolean;
}

/**
 * Enrichment waterfalls (spec "Enrichment waterfalls"): `POST /enrich/{capability}`, the same as
 * the waterfall tools `POST /tools/{capability}`, and the provider jobs they leave open.
 */
export async function enrichRoutes(app: FastifyInstance, deps: GatewayDependencies): Promise<void> {
  const { waterfall: waterfallClient } = deps.clients;
  const enrich = async (
    capability: string,
    body: EnrichBody,
    { caller, idempotentRunId }: { caller: Caller; idempotentRunId?: string },
  ) => {
    const { resultJson, meta } = await waterfallClient.enrich(
      {
        capability,
        payloadJson: jsonBytes(body.payload),
        rowsJson: jsonBytes(body.rows),
        dryRun: body.dry_run === true || body.preview === true,
        // Keyed by an Idempotency-Key, the retry after this gateway died joins the same run.
        runId: idempotentRunId ?? '',
      },
      { caller, deadlineMs: ENRICH_DEADLINE_MS },
    );
    return { ...(JSON.parse(resultJson.toString('utf8')) as object), _meta: publicJson.enrichMeta(meta!) };
  };

  app.post<{ Params: { capability: string }; Body: EnrichBody }>(
    '/enrich/:capability',
    { config: { idempotency: 'header' }, schema: { params: capabilityParams, body: enrichBody, response: responses } },
    async (request) => enrich(request.params.capability, request.body ?? {}, request),
  );

  for (const capability of ENRICH_CAPABILITIES) {
    app.post<{ Body: EnrichBody }>(
      filled(ROUTES.enrichTool, { capability }),
      { config: { idempotency: 'header' }, schema: { body: toolBody, response: responses } },
      async (request) => enrich(capability, request.body ?? {}, request),
    );
  }

  const job = async (provider: string, jobId: string, caller: Caller) => {
    const { jobJson } = await waterfallClient.getEnrichJob({ provider, jobId }, { caller });
    return JSON.parse(jobJson.toString('utf8')) as object;
  };

  app.get<{ Params: { provider: string; job_id: string } }>(
    routerPath(ROUTES.enrichJob),
    { schema: { params: jobParams, response: { 200: jobRecord } } },
    async (request) => job(request.params.provider, request.params.job_id, request.caller),
  );

  // The `resume` of a `still_enriching` step: {tool: "enrich_jobs", method: <provider>, id_arg: "job_id"}.
  app.post<{ Params: { provider: string }; Body: { payload: { job_id: string } } }>(
    `/tools/${publicSchemas.RESUME_TOOL}/:provider`,
    {
      schema: {
        params: resumeParams,
        body: resumeBody,
        response: { 200: jobRecord },
      },
    },
    async (request) => job(request.params.provider, request.body.payload.job_id, request.caller),
  );
}

function jsonBytes(value: unknown): Buffer {
  return value === undefined ? Buffer.alloc(0) : Buffer.from(JSON.stringify(value));
}
