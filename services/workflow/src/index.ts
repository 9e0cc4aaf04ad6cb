import { grpcModule } from '@rde/platform';
import { workflow, protoFileOf } from '@rde/proto';

export const workflowModule = grpcModule({
  name: 'workflow',
  defaultPort: 7106,
  dependencies: [],
  config: {},
  async build(ctx) {
    const store = await ctx.backends.documentStore('rde_workflow');
    return {
      services: [
        {
          fullName: 'rde.workflow.v1.WorkflowService',
          definition: workflow.WorkflowServiceService,
          handlers: {},
          protoFile: protoFileOf('workflow'),
        },
      ],
      healthy: async () => (await store.ping(), true),
      close: async () => undefined,
    };
  },
});
