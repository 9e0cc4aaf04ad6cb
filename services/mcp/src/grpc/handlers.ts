import { type Handlers, workspaceCallerOf } from '@rde/platform';
import type { mcp } from '@rde/proto';
import type { McpEndpoint } from '../app/mcp-handler';
import { parseJson } from '../domain/json';

/** One MCP exchange: the gateway's HTTP request in, the HTTP answer back. */
export function mcpHandlers(endpoint: McpEndpoint): Handlers<typeof mcp.McpServiceService> {
  return {
    async serve(request, context) {
      const answer = await endpoint.serve(
        {
          method: request.method,
          url: request.url,
          headers: new Map(request.headers.map(({ name, value }) => [name.toLowerCase(), value])),
          body: request.body,
          parsedBody: parsedJson(request.body),
        },
        workspaceCallerOf(context),
        request.callId,
      );
      return {
        status: answer.status,
        headers: answer.headers.map(([name, value]) => ({ name, value })),
        body: answer.body,
      };
    },
  };
}

/** The gateway validated the body as JSON; anything else is left for the SDK to answer as a parse error. */
function parsedJson(body: Uint8Array): unknown {
  try {
    return parseJson(body, undefined);
  } catch {
    return undefined;
  }
}
