import { grpcModule } from '@rde/platform';
import { mcp, protoFileOf } from '@rde/proto';
import { createEndpoint } from './app/mcp-handler';
import { createToolClients } from './clients';
import { mcpConfig } from './config';
import { mcpHandlers } from './grpc/handlers';

/** The MCP server: tools mapped onto the catalog's, waterfall's, billing's and dataset's RPCs (decision 0028). */
export const mcpModule = grpcModule({
  name: 'mcp',
  defaultPort: 7107,
  dependencies: ['catalog', 'billing', 'dataset', 'waterfall'],
  async build(ctx) {
    const config = mcpConfig(ctx.env);
    const store = await ctx.backends.documentStore('rde_mcp');
    const clients = createToolClients(ctx.addresses, config.RDE_RPC_DEADLINE_MS);
    const endpoint = createEndpoint(clients);
    return {
      services: [
        {
          fullName: 'rde.mcp.v1.McpService',
          definition: mcp.McpServiceService,
          handlers: mcpHandlers(endpoint),
          protoFile: protoFileOf('mcp'),
        },
      ],
      healthy: async () => (await store.ping(), true),
      close: async () => {
        await endpoint.close();
        clients.close();
      },
    };
  },
});
