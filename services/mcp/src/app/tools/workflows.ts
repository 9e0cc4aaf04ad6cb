import { publicJson, publicRoutes, publicSchemas } from '@rde/proto';
import { jsonBytes } from '../../domain/json';
import { object, type McpTool } from './tool';

const { ROUTES } = publicRoutes;

/**
 * Workflow definitions (spec "Workflows"): list, lint and apply over the workflow service's RPCs.
 * Lint's and apply's arguments are the definition itself, as their REST bodies are.
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
      return { ...publicJson.workflowRecord(applied.workflow!), changed: applied.changed, created: applied.created };
    },
  },
];
