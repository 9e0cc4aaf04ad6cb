import type { FastifyInstance } from 'fastify';
import { errorResponses } from '../../contract';
import type { GatewayDependencies } from '../../dependencies';
import { qualifiedSchema, qualifyBody } from './schemas';

interface QualifyBody {
  job_spec: string;
  candidates: unknown[];
  min_score?: unknown;
  allow_thin_profiles: boolean;
  async: boolean;
}

/** 409: `async: true` when the workspace's dataset quotas have no room for the run's dataset. */
const quotaErrors = errorResponses(409);

/** POST /qualify: scores candidates against a job spec (waterfall service, free). */
export async function qualifyRoutes(app: FastifyInstance, deps: GatewayDependencies): Promise<void> {
  app.post<{ Body: QualifyBody }>(
    '/qualify',
    { schema: { tags: ['qualify'], body: qualifyBody, response: { 200: qualifiedSchema, ...quotaErrors } } },
    async (request) => {
      const { body, caller } = request;
      const answer = await deps.clients.waterfall.qualify(
        {
          jobSpec: body.job_spec,
          candidatesJson: Buffer.from(JSON.stringify(body.candidates)),
          minScoreJson: body.min_score === undefined ? Buffer.alloc(0) : Buffer.from(JSON.stringify(body.min_score)),
          allowThinProfiles: body.allow_thin_profiles,
          runAsync: body.async,
        },
        { caller },
      );
      const meta = { credits_charged: 0, scored_on: answer.scoredOn, thin_profiles: answer.thinProfiles };
      if (!body.async) {
        return { candidates: JSON.parse(Buffer.from(answer.candidatesJson).toString('utf8')) as object[], _meta: meta };
      }
      const run = { run_id: answer.runId, dataset_id: answer.datasetId, status: answer.status };
      return { ...run, candidates: answer.candidateCount, _meta: { ...meta, ...run } };
    },
  );
}
