import { errors, type CallContext, type Caller, type Handlers } from '@rde/platform';
import type { mcp } from '@rde/proto';
import type { McpEndpoint } from '../app/mcp-handler';

/** One MCP exchange: the gateway's HTTP request rebuilt as a web Request, the SDK's Response sent back. */
export function mcpHandlers(endpoint: McpEndpoint): Handlers<typeof mcp.McpServiceService> {
  return {
    async serve(request, context) {
      const caller = callerOf(context);
      const response = await endpoint.serve(
        new Request(request.url, {
          method: request.method,
          headers: request.headers.map(({ name, value }) => [name, value] as [string, string]),
          body: request.method === 'POST' ? Buffer.from(request.body) : undefined,
        }),
        caller,
      );
      return {
        status: response.status,
        headers: [...response.headers].map(([name, value]) => ({ name, value })),
        body: Buffer.from(await response.arrayBuffer()),
      };
    },
  };
}

/** MCP acts for one workspace per connection: a call that acts for nobody is refused. */
function callerOf(context: CallContext): Caller {
  if (!context.caller?.workspaceId) throw errors.unauthenticated();
  return context.caller;
}
