import type { FastifyInstance } from 'fastify';
import { errorResponses } from '../../contract';
import type { GatewayDependencies } from '../../dependencies';
import { RUN_BODY_LIMIT_BYTES, runBody, runParams, runRecord, runRefused } from './schemas';

/** A blocking run answers its handle after about 85 s, under the spec's ~100 s gateway close. */
const START_DEADLINE_MS = 100_000;

/**
 * Dataset enrichment runs (spec "Dataset enrichment runs"): start one, poll it (free), cancel it
 * (decision 0033). The poll also answers the run of an enrichment call over rows (spec States,
 * decision 0057). 402: the balance cannot cover one row (with `checkout_url` when payments are
 * configured); 404: an input dataset not in this
 * workspace; 409: the output dataset would pass the workspace's dataset quota; 429: too many runs
 * of the workspace are running.
 */
export async function enrichRunRoutes(app: FastifyInstance, deps: GatewayDependencies): Promise<void> {
  const { waterfall } = deps.clients;
  const parse = (json: Buffer) => JSON.parse(json.toString('utf8')) as object;

  app.post<{ Body: Record<string, unknown> }>(
    '/enrich/run',
    {
      bodyLimit: RUN_BODY_LIMIT_BYTES,
      config: { idempotency: 'header' },
      schema: { body: runBody, response: { 200: runRecord, 402: runRefused, ...errorResponses(404, 409, 429) } },
    },
    async (request) => {
      const { runJson } = await waterfall.startEnrichRun(
        { bodyJson: Buffer.from(JSON.stringify(request.body)), runId: '' },
        { caller: request.caller, deadlineMs: START_DEADLINE_MS },
      );
      return parse(runJson);
    },
  );

  app.get<{ Params: { run_id: string } }>(
    '/enrich/runs/:run_id',
    { schema: { params: runParams, response: { 200: runRecord } } },
    async (request) =>
      parse((await waterfall.getEnrichRun({ runId: request.params.run_id }, { caller: request.caller })).runJson),
  );

  app.post<{ Params: { run_id: string } }>(
    '/enrich/runs/:run_id/cancel',
    { schema: { params: runParams, response: { 200: runRecord } } },
    async (request) =>
      parse((await waterfall.cancelEnrichRun({ runId: request.params.run_id }, { caller: request.caller })).runJson),
  );
}
