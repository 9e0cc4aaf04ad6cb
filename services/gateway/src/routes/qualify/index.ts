import type { FastifyError, FastifyInstance } from 'fastify';
import { httpError } from '@rde/platform';
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
    {
      schema: { tags: ['qualify'], body: qualifyBody, response: { 200: qualifiedSchema, ...quotaErrors } },
      attachValidation: true,
    },
    async (request) => {
      const { body, caller, validationError } = request;
      if (validationError) throw specRefusal(validationError) ?? validationError;
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

type Issue = NonNullable<FastifyError['validation']>[number];

/**
 * The spec's own 422 bodies (Errors table) for the two shapes it names, ahead of the generic
 * validation list: `bad_candidates` with every position that is not an object, then `bad_min_score`.
 */
function specRefusal(error: { validation?: Issue[] }) {
  const issues = error.validation ?? [];
  const rows = issues.flatMap(({ instancePath, keyword }) => {
    const position = /^\/candidates\/(\d+)$/.exec(instancePath ?? '');
    return position && keyword === 'type' ? [Number(position[1])] : [];
  });
  if (rows.length > 0) {
    const message = 'every candidate must be an object (a search or profile row)';
    return httpError(422, { detail: { error: 'bad_candidates', rows, message } });
  }
  if (issues.some(({ instancePath }) => instancePath === '/min_score')) {
    return httpError(422, { detail: { error: 'bad_min_score', message: 'min_score must be a number from 0 to 10' } });
  }
  return undefined;
}
