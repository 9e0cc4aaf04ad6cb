import { publicJson, publicRoutes, publicSchemas } from '@rde/proto';
import { jsonBytes } from '../../domain/json';
import { object, text, type McpTool } from './tool';

const { ROUTES } = publicRoutes;

const parsed = (json: Uint8Array) => JSON.parse(Buffer.from(json).toString('utf8')) as Record<string, unknown>;

/**
 * Workflows (spec "Workflows"): list, lint and apply definitions; call a workflow, read a run, list
 * runs (decision 0074) — over the workflow service's RPCs. Lint's, apply's and call's arguments are
 * their REST bodies.
 */
export const WORKFLOW_TOOLS: readonly McpTool[] = [
  {
    name: 'list_workflows',
    title: 'List workflows',
    description: `The workspace's workflows, most recently changed first (GET ${ROUTES.workflows}).`,
    inputSchema: object({
      offset: { type: 'integer', minimum: 0, default: 0 },
      limit: { type: 'integer', minimum: 1, maximum: 100, default: 50 },
    }),
    spends: false,
    async run(clients, caller, args) {
      const page = { offset: args.offset as number, limit: args.limit as number };
      const listed = await clients.workflow.listWorkflows({ page }, { caller });
      return { workflows: listed.workflows.map(publicJson.workflowSummary), ...listed.page };
    },
  },
  {
    name: 'lint_workflow',
    title: 'Lint a workflow definition',
    description:
      `Checks a workflow definition without saving it (POST ${ROUTES.workflowLint}): {valid, problems}, each ` +
      `problem with a JSON Pointer path. The definition's schema and each step's input schema: GET ${ROUTES.workflowSchema}.`,
    inputSchema: publicSchemas.jsonObject('a workflow definition, or a bare {config, trigger}'),
    spends: false,
    async run(clients, caller, args) {
      return publicJson.lintResult(
        await clients.workflow.lintWorkflow({ definitionJson: jsonBytes(args) }, { caller }),
      );
    },
  },
  {
    name: 'apply_workflow',
    title: 'Create or update a workflow',
    description:
      `Lints, then creates the workflow the definition names or stores a changed definition as its next version ` +
      `(POST ${ROUTES.workflowApply}); an identical definition answers changed: false. Free.`,
    inputSchema: publicSchemas.workflowDefinitionSchema,
    spends: false,
    writes: true,
    async run(clients, caller, args) {
      const applied = await clients.workflow.applyWorkflow({ definitionJson: jsonBytes(args) }, { caller });
      return {
        ...publicJson.workflowRecord(applied.workflow!),
        changed: applied.changed,
        created: applied.created,
        ...(applied.webhookId && { webhook_id: applied.webhookId }),
      };
    },
  },
  {
    name: 'call_workflow',
    title: 'Run a workflow',
    description:
      `Queues a run of a workflow's latest version (POST ${ROUTES.workflowCall}) and answers it (status queued); ` +
      `read it with get_workflow_run. mode live bills each step (only the workspace cap applies), dry_run ` +
      `estimates without calling a vendor, smoke_test runs live on one item.`,
    inputSchema: publicSchemas.workflowCallBody,
    spends: true,
    async run(clients, caller, args, callId) {
      const body = { source: 'mcp', ...args };
      return parsed(
        (await clients.workflow.callWorkflow({ bodyJson: jsonBytes(body), runId: callId }, { caller })).runJson,
      );
    },
  },
  {
    name: 'get_workflow_run',
    title: 'Read a workflow run',
    description: `A run with each step's status, timings, charge, error and output (GET ${ROUTES.workflowRun}).`,
    inputSchema: object({ workflow_id: text('`wf_` id'), run_id: text('`wfr_` id') }, ['workflow_id', 'run_id']),
    spends: false,
    async run(clients, caller, args) {
      const request = { workflowId: args.workflow_id as string, runId: args.run_id as string };
      return parsed((await clients.workflow.getWorkflowRun(request, { caller })).runJson);
    },
  },
  {
    name: 'list_workflow_runs',
    title: 'List workflow runs',
    description:
      `Runs newest first, without step outputs: of one workflow (GET ${ROUTES.workflowRuns}, 25 by default) or ` +
      `of the whole workspace when workflow_id is left out (GET ${ROUTES.workflowRunsAll}, 50).`,
    inputSchema: object({
      workflow_id: text('`wf_` id; leave out for every workflow'),
      offset: { type: 'integer', minimum: 0, default: 0 },
      limit: { type: 'integer', minimum: 1, maximum: 100 },
    }),
    spends: false,
    async run(clients, caller, args) {
      const workflowId = (args.workflow_id as string | undefined) ?? '';
      const page = {
        offset: args.offset as number,
        limit: (args.limit as number | undefined) ?? (workflowId ? 25 : 50),
      };
      const listed = await clients.workflow.listWorkflowRuns({ workflowId, page }, { caller });
      return { runs: parsed(listed.runsJson) as unknown as object[], ...listed.page };
    },
  },
];
