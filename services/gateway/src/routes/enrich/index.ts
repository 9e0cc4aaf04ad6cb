import type { FastifyInstance } from 'fastify';
import type { Caller } from '@rde/platform';
import type { waterfall } from '@rde/proto';
import { errorResponses } from '../../contract';
import { credits } from '../../credits';
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

const tags = ['enrich'];
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
  const enrich = async (capability: string, body: EnrichBody, caller: Caller) => {
    const { resultJson, meta } = await waterfallClient.enrich(
      {
        capability,
        payloadJson: jsonBytes(body.payload),
        rowsJson: jsonBytes(body.rows),
        dryRun: body.dry_run === true || body.preview === true,
      },
      { caller, deadlineMs: ENRICH_DEADLINE_MS },
    );
    return { ...(JSON.parse(resultJson.toString('utf8')) as object), _meta: metaOf(meta!) };
  };

  app.post<{ Params: { capability: string }; Body: EnrichBody }>(
    '/enrich/:capability',
    { schema: { tags, params: capabilityParams, body: enrichBody, response: responses } },
    async (request) => enrich(request.params.capability, request.body ?? {}, request.caller),
  );

  for (const capability of ENRICH_CAPABILITIES) {
    app.post<{ Body: EnrichBody }>(
      `/tools/${capability}`,
      { schema: { tags: ['tools', ...tags], body: toolBody, response: responses } },
      async (request) => enrich(capability, request.body ?? {}, request.caller),
    );
  }

  const job = async (provider: string, jobId: string, caller: Caller) => {
    const { jobJson } = await waterfallClient.getEnrichJob({ provider, jobId }, { caller });
    return JSON.parse(jobJson.toString('utf8')) as object;
  };

  app.get<{ Params: { provider: string; job_id: string } }>(
    '/enrich/jobs/:provider/:job_id',
    { schema: { tags, params: jobParams, response: { 200: jobRecord } } },
    async (request) => job(request.params.provider, request.params.job_id, request.caller),
  );

  // The `resume` of a `still_enriching` step: {tool: "enrich_jobs", method: <provider>, id_arg: "job_id"}.
  app.post<{ Params: { provider: string }; Body: { payload: { job_id: string } } }>(
    '/tools/enrich_jobs/:provider',
    {
      schema: {
        tags: ['tools', ...tags],
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

/** The `_meta` block with only the fields that apply. */
function metaOf(meta: waterfall.EnrichMeta) {
  const fields = {
    charged: credits(meta.charged),
    credits_charged: credits(meta.creditsCharged),
    balance: credits(meta.balance),
    reserved: credits(meta.reserved),
    settled: meta.settled,
    run_id: meta.runId || undefined,
    dataset_id: meta.datasetId || undefined,
    row_count: meta.rowCount,
    status: meta.status || undefined,
    progress: meta.progress && { done: Number(meta.progress.done), total: Number(meta.progress.total) },
    poll_after_s: meta.pollAfterS,
    replayed: meta.replayed,
    pending_jobs: meta.runId
      ? meta.pendingJobs.map((job) => ({ provider: job.provider, job_id: job.jobId, fetch: job.fetch }))
      : undefined,
    would_charge_credits: credits(meta.wouldChargeCredits),
    would_call: meta.wouldCall || undefined,
    warnings: meta.warningsJson.length > 0 ? (JSON.parse(meta.warningsJson.toString('utf8')) as object[]) : undefined,
  };
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
}
