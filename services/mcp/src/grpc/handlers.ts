import { errors, type CallContext, type Caller, type Handlers } from '@rde/platform';
import type { mcp } from '@rde/proto';
import type { McpEndpoint } from '../app/mcp-handler';

/** One MCP exchange: the gateway's HTTP request rebuilt as a web Request, the SDK's Response sent back. */
export function mcpHandlers(endpoint: McpEndpoint): Handlers<typeof mcp.McpServiceService> {
  return {
    async serve(request, context) {
      const caller = callerOf(context);
      const parsedBody = parsedJson(request.body);
      // The SDK reads the parsed body; the raw bytes ride along only for it to answer a parse error.
      const rawBody = request.method === 'POST' && parsedBody === undefined ? Buffer.from(request.body) : undefined;
      const response = await endpoint.serve(
        new Request(request.url, {
          method: request.method,
          headers: request.headers.map(({ name, value }) => [name, value] as [string, string]),
          body: rawBody,
        }),
        parsedBody,
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

/** The gateway validated the body as JSON; anything else is left for the SDK to answer as a parse error. */
function parsedJson(body: Uint8Array): unknown {
  try {
    return JSON.parse(Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8'));
  } catch {
    return undefined;
  }
}

/** MCP acts for one workspace per connection: a call that acts for nobody is refused. */
function callerOf(context: CallContext): Caller {
  if (!context.caller?.workspaceId) throw errors.unauthenticated();
  return context.caller;
}
