import type { FastifyInstance } from 'fastify';
import { httpError } from '@rde/platform';
import { publicJson, publicRoutes, publicSchemas } from '@rde/proto';
import { errorResponses } from '../../contract';
import type { GatewayDependencies } from '../../dependencies';
import { qualifiedSchema, qualifyBody } from './schemas';

const { ROUTES } = publicRoutes;

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
    ROUTES.qualify,
    {
      config: { idempotency: 'header' },
      schema: { body: qualifyBody, response: { 200: qualifiedSchema, ...quotaErrors } },
      attachValidation: true,
    },
    async (request) => {
      const { body, caller, validationError } = request;
      if (validationError) {
        const refusal = publicSchemas.qualifyRefusal(validationError.validation ?? []);
        throw refusal ? httpError(refusal.status, refusal.body) : validationError;
      }
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
      return publicJson.qualified(answer, body.async);
    },
  );
}
