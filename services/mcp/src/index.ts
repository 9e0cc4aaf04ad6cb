import { grpcModule } from '@rde/platform';
import { mcp, mcpOAuth, protoFileOf } from '@rde/proto';
import { createEndpoint } from './app/mcp-handler';
import { createAuthorizationServer } from './app/oauth';
import { createSkillResources } from './app/skill-resources';
import { createAuthClient, createToolClients } from './clients';
import { MCP_VARIABLES, mcpConfig } from './config';
import { mcpHandlers } from './grpc/handlers';
import { oauthHandlers } from './grpc/oauth-handlers';

/**
 * The MCP server: tools mapped onto the catalog's, waterfall's, billing's, dataset's and workflow's RPCs
 * (decision 0028), the skills as resources (decision 0080), and its OAuth 2.0 authorization server (decision 0029).
 */
export const mcpModule = grpcModule({
  name: 'mcp',
  defaultPort: 7107,
  dependencies: ['auth', 'catalog', 'billing', 'dataset', 'waterfall', 'workflow'],
  config: MCP_VARIABLES,
  async build(ctx) {
    const config = mcpConfig(ctx.env);
    const store = await ctx.own.documentStore();
    const counters = await ctx.own.keyValue();
    const clients = createToolClients(ctx.addresses, config.RDE_RPC_DEADLINE_MS);
    const auth = createAuthClient(ctx.addresses, config.RDE_RPC_DEADLINE_MS);
    const endpoint = createEndpoint(clients, createSkillResources(clients, ctx.logger));
    const authorizationServer = await createAuthorizationServer({
      store,
      counters,
      auth: auth.rpc,
      clock: ctx.backends.clock,
      registerPerMinute: config.RDE_MCP_OAUTH_REGISTER_PER_MINUTE,
      tokenPerMinute: config.RDE_MCP_OAUTH_TOKEN_PER_MINUTE,
      membershipCacheMs: config.RDE_MCP_OAUTH_MEMBERSHIP_CACHE_MS,
      refreshGraceMs: config.RDE_MCP_OAUTH_REFRESH_GRACE_MS,
      metadataDocuments: {
        timeoutMs: config.RDE_MCP_CIMD_TIMEOUT_MS,
        maxBytes: config.RDE_MCP_CIMD_MAX_BYTES,
        allowLoopbackHttp: config.RDE_MCP_CIMD_ALLOW_LOOPBACK_HTTP,
      },
    });
    return {
      services: [
        {
          fullName: 'rde.mcp.v1.McpService',
          definition: mcp.McpServiceService,
          handlers: mcpHandlers(endpoint),
          protoFile: protoFileOf('mcp'),
        },
        {
          fullName: 'rde.mcp.v1.AuthorizationService',
          definition: mcpOAuth.AuthorizationServiceService,
          handlers: oauthHandlers(authorizationServer),
          protoFile: 'rde/mcp/v1/oauth.proto',
        },
      ],
      healthy: async () => (await Promise.all([store.ping(), counters.ping()]), true),
      close: async () => {
        await endpoint.close();
        clients.close();
        auth.close();
      },
    };
  },
});
