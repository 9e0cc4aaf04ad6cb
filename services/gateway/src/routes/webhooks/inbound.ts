import type { FastifyInstance } from 'fastify';
import { publicRoutes } from '@rde/proto';
import { errorResponses } from '../../contract';
import type { GatewayDependencies } from '../../dependencies';
import { webhookParams } from '../workflows/run-schemas';

const { ROUTES, routerPath } = publicRoutes;

/** An inbound webhook's body: a JSON object of at most 64 KiB (decision 0075); larger is 413. */
export const WEBHOOK_BODY_LIMIT_BYTES = 64 * 1024;

const startedSchema = {
  type: 'object',
  properties: {
    run_id: {
      type: 'string',
      description: '`wfr_` id; read it with a key at GET /api/v2/workflows/{workflow_id}/runs/{run_id}',
    },
    workflow_id: { type: 'string' },
    status: { const: 'queued' },
  },
  required: ['run_id', 'workflow_id', 'status'],
} as const;

/**
 * The inbound workflow webhook (spec "Webhook triggers", Authentication 7): no bearer, the id in
 * the URL is the authentication. 202 with the queued run's id; 404 for an id that is unknown,
 * rotated away or whose workflow was deleted; 409 for a disabled workflow; 422 for a body that is
 * not a JSON object or does not fit the input schema; 413 past the size limit; 429 past the per-URL
 * rate. Every refusal starts nothing.
 */
export async function inboundWebhookRoutes(app: FastifyInstance, deps: GatewayDependencies): Promise<void> {
  app.post<{ Params: { webhook_id: string }; Body: unknown }>(
    routerPath(ROUTES.webhookInbound),
    {
      config: { public: true },
      bodyLimit: WEBHOOK_BODY_LIMIT_BYTES,
      schema: {
        params: webhookParams,
        body: { type: 'object', additionalProperties: true, description: 'any JSON object: it becomes the run input' },
        response: { 202: startedSchema, ...errorResponses(409, 429) },
      },
    },
    async (request, reply) => {
      const answer = await deps.clients.workflow.fireWebhook(
        { webhookId: request.params.webhook_id, bodyJson: Buffer.from(JSON.stringify(request.body ?? null)) },
        {},
      );
      const run = JSON.parse(Buffer.from(answer.runJson).toString('utf8')) as { id: string; workflow_id: string };
      return reply.code(202).send({ run_id: run.id, workflow_id: run.workflow_id, status: 'queued' });
    },
  );
}
