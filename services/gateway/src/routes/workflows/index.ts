import type { FastifyInstance } from 'fastify';
import { publicJson, publicRoutes } from '@rde/proto';
import { deletedBody, errorResponses } from '../../contract';
import type { GatewayDependencies } from '../../dependencies';
import {
  appliedSchema,
  applyBody,
  lintBody,
  lintRefusalSchema,
  lintSchema,
  listQuery,
  listSchema,
  schemaQuery,
  subjectSchema,
  versionQuery,
  workflowParams,
  workflowSchema,
} from './schemas';

const { ROUTES, routerPath, filled } = publicRoutes;

/** 409: another apply of the same workflow kept winning, or it was deleted meanwhile. */
const applyErrors = errorResponses(409);
/** 404: a subject that names nothing a step can use. */
const subjectErrors = errorResponses(404);

interface WorkflowParams {
  workflow_id: string;
}

const bytes = (value: unknown) => Buffer.from(JSON.stringify(value));

/** Workflow definitions (decisions 0072, 0073): lint, apply, schema, read, list, enable/disable, delete. */
export async function workflowRoutes(app: FastifyInstance, deps: GatewayDependencies): Promise<void> {
  const workflows = deps.clients.workflow;

  app.post<{ Body: object }>(
    ROUTES.workflowLint,
    { schema: { body: lintBody, response: { 200: lintSchema } } },
    async (request) => {
      const linted = await workflows.lintWorkflow({ definitionJson: bytes(request.body) }, { caller: request.caller });
      return publicJson.lintResult(linted);
    },
  );

  app.post<{ Body: object }>(
    ROUTES.workflowApply,
    {
      schema: {
        body: applyBody,
        response: { 200: appliedSchema, 201: appliedSchema, 422: lintRefusalSchema, ...applyErrors },
      },
    },
    async (request, reply) => {
      const applied = await workflows.applyWorkflow(
        { definitionJson: bytes(request.body) },
        { caller: request.caller },
      );
      return reply.code(applied.created ? 201 : 200).send({
        ...publicJson.workflowRecord(applied.workflow!),
        changed: applied.changed,
        created: applied.created,
        // Shown this once: on the apply that made the workflow a webhook one (decision 0075).
        ...(applied.webhookId && {
          webhook_id: applied.webhookId,
          webhook_url: filled(ROUTES.webhookInbound, { webhook_id: applied.webhookId }),
        }),
      });
    },
  );

  app.get<{ Querystring: { subject: string } }>(
    ROUTES.workflowSchema,
    { schema: { querystring: schemaQuery, response: { 200: subjectSchema, ...subjectErrors } } },
    async (request) => {
      const found = await workflows.getWorkflowSchema({ subject: request.query.subject }, { caller: request.caller });
      return { subject: found.subject, schema: JSON.parse(Buffer.from(found.schemaJson).toString('utf8')) as object };
    },
  );

  app.get<{ Querystring: { offset: number; limit: number } }>(
    ROUTES.workflows,
    { schema: { querystring: listQuery, response: { 200: listSchema } } },
    async (request) => {
      const listed = await workflows.listWorkflows({ page: request.query }, { caller: request.caller });
      return { workflows: listed.workflows.map(publicJson.workflowSummary), ...listed.page };
    },
  );

  app.get<{ Params: WorkflowParams; Querystring: { version?: number } }>(
    routerPath(ROUTES.workflow),
    { schema: { params: workflowParams, querystring: versionQuery, response: { 200: workflowSchema } } },
    async (request) => {
      const found = await workflows.getWorkflow(
        { workflowId: request.params.workflow_id, version: request.query.version ?? 0 },
        { caller: request.caller },
      );
      return publicJson.workflowRecord(found.workflow!);
    },
  );

  for (const [route, enabled] of [
    [ROUTES.workflowEnable, true],
    [ROUTES.workflowDisable, false],
  ] as const) {
    app.post<{ Params: WorkflowParams }>(
      routerPath(route),
      { schema: { params: workflowParams, response: { 200: workflowSchema } } },
      async (request) => {
        const set = await workflows.setWorkflowEnabled(
          { workflowId: request.params.workflow_id, enabled },
          { caller: request.caller },
        );
        return publicJson.workflowRecord(set.workflow!);
      },
    );
  }

  app.delete<{ Params: WorkflowParams }>(
    routerPath(ROUTES.workflow),
    { schema: { params: workflowParams, response: { 200: deletedBody } } },
    async (request) => {
      const deleted = await workflows.deleteWorkflow(
        { workflowId: request.params.workflow_id },
        { caller: request.caller },
      );
      return { ok: true, deleted: deleted.workflowId };
    },
  );
}
