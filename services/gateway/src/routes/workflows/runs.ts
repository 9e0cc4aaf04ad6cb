import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { CallOptions } from '@rde/platform';
import { publicRoutes } from '@rde/proto';
import { errorResponses } from '../../contract';
import type { GatewayDependencies } from '../../dependencies';
import {
  callBody,
  recentRunsQuery,
  rotatedSchema,
  runListSchema,
  runParams,
  runSchema,
  workflowRunsQuery,
} from './run-schemas';
import { workflowParams } from './schemas';

const { ROUTES, routerPath, filled } = publicRoutes;

interface RunParams {
  workflow_id: string;
  run_id: string;
}

const bytes = (value: unknown) => Buffer.from(JSON.stringify(value));
const runOf = (answer: { runJson: Uint8Array }) => JSON.parse(Buffer.from(answer.runJson).toString('utf8')) as object;

type RunRpc = (
  request: { workflowId: string; runId: string },
  options: CallOptions,
) => Promise<{ runJson: Uint8Array }>;

/** The handler of a route on the run its path names: `rpc` (a read or a cancel) answers the run. */
function runAnswer(rpc: RunRpc) {
  return async (request: FastifyRequest<{ Params: RunParams }>) => {
    const { workflow_id: workflowId, run_id: runId } = request.params;
    return runOf(await rpc({ workflowId, runId }, { caller: request.caller }));
  };
}

/** Workflow runs (decision 0074): call, read, list, cancel; and the webhook id's rotation (decision 0075). */
export async function workflowRunRoutes(app: FastifyInstance, deps: GatewayDependencies): Promise<void> {
  const workflows = deps.clients.workflow;

  app.post<{ Body: object }>(
    ROUTES.workflowCall,
    {
      config: { idempotency: 'header' },
      schema: { body: callBody, response: { 202: runSchema, ...errorResponses(404, 409) } },
    },
    async (request, reply) => {
      const run = await workflows.callWorkflow(
        // Keyed by an Idempotency-Key, the retry after this gateway died answers the same run.
        { bodyJson: bytes(request.body ?? {}), runId: request.idempotentRunId ?? '' },
        { caller: request.caller },
      );
      return reply.code(202).send(runOf(run));
    },
  );

  for (const [route, query] of [
    [ROUTES.workflowRunsAll, recentRunsQuery],
    [ROUTES.workflowRuns, workflowRunsQuery],
  ] as const) {
    const scoped = route === ROUTES.workflowRuns;
    app.get<{ Params: { workflow_id?: string }; Querystring: { offset: number; limit: number } }>(
      routerPath(route),
      { schema: { ...(scoped && { params: workflowParams }), querystring: query, response: { 200: runListSchema } } },
      async (request) => {
        const listed = await workflows.listWorkflowRuns(
          { workflowId: request.params.workflow_id ?? '', page: request.query },
          { caller: request.caller },
        );
        return { runs: JSON.parse(Buffer.from(listed.runsJson).toString('utf8')) as object[], ...listed.page };
      },
    );
  }

  const oneRun = { schema: { params: runParams, response: { 200: runSchema } } };
  app.get(
    routerPath(ROUTES.workflowRun),
    oneRun,
    runAnswer((run, options) => workflows.getWorkflowRun(run, options)),
  );
  app.post(
    routerPath(ROUTES.workflowRunCancel),
    oneRun,
    runAnswer((run, options) => workflows.cancelWorkflowRun(run, options)),
  );

  app.post<{ Params: { workflow_id: string } }>(
    routerPath(ROUTES.workflowWebhookRotate),
    { schema: { params: workflowParams, response: { 200: rotatedSchema, ...errorResponses(409) } } },
    async (request) => {
      const rotated = await workflows.rotateWebhook(
        { workflowId: request.params.workflow_id },
        { caller: request.caller },
      );
      return {
        workflow_id: rotated.workflow!.id,
        webhook_id: rotated.webhookId,
        webhook_url: filled(ROUTES.webhookInbound, { webhook_id: rotated.webhookId }),
      };
    },
  );
}
