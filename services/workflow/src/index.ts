import { grpcModule } from '@rde/platform';
import { workflow, protoFileOf } from '@rde/proto';
import { ApplyWorkflow } from './app/apply-workflow';
import { DeleteWorkflow } from './app/delete-workflow';
import { LintWorkflow } from './app/lint-workflow';
import { ListWorkflows } from './app/list-workflows';
import { ReadWorkflow } from './app/read-workflow';
import { SetWorkflowEnabled } from './app/set-workflow-enabled';
import { WorkflowSchema } from './app/workflow-schema';
import { catalogMethods } from './clients/catalog';
import { WORKFLOW_VARIABLES, workflowConfig } from './config';
import { workflowHandlers } from './grpc/handlers';
import { WorkflowsRepository } from './store/workflows';

/**
 * Stored workflow definitions (decisions 0072, 0073): lint, apply as numbered versions, read,
 * enable or disable, delete, list. Steps' `uses` are checked against the catalog's RPCs.
 */
export const workflowModule = grpcModule({
  name: 'workflow',
  defaultPort: 7106,
  dependencies: ['catalog'],
  config: WORKFLOW_VARIABLES,
  async build(ctx) {
    const config = workflowConfig(ctx.env);
    const store = await ctx.backends.documentStore('rde_workflow');
    const workflows = await WorkflowsRepository.open(store);
    const methods = catalogMethods(ctx.addresses, config.RDE_RPC_DEADLINE_MS);
    const { clock } = ctx.backends;
    const lint = new LintWorkflow(methods);
    const read = new ReadWorkflow(workflows);
    return {
      services: [
        {
          fullName: 'rde.workflow.v1.WorkflowService',
          definition: workflow.WorkflowServiceService,
          handlers: workflowHandlers({
            lint,
            apply: new ApplyWorkflow(lint, workflows, clock),
            read,
            list: new ListWorkflows(workflows),
            setEnabled: new SetWorkflowEnabled(workflows, read, clock),
            delete: new DeleteWorkflow(workflows, clock),
            schema: new WorkflowSchema(lint),
          }),
          protoFile: protoFileOf('workflow'),
        },
      ],
      healthy: async () => (await store.ping(), true),
      close: async () => methods.close(),
    };
  },
});
