import { grpcModule } from '@rde/platform';
import { mcp, protoFileOf } from '@rde/proto';

export const mcpModule = grpcModule({
  name: 'mcp',
  defaultPort: 7107,
  dependencies: [],
  async build(ctx) {
    const store = await ctx.backends.documentStore('rde_mcp');
    return {
      services: [
        {
          fullName: 'rde.mcp.v1.McpService',
          definition: mcp.McpServiceService,
          handlers: {},
          protoFile: protoFileOf('mcp'),
        },
      ],
      healthy: async () => (await store.ping(), true),
      close: async () => undefined,
    };
  },
});
