import { Client, StreamableHTTPClientTransport, type ClientOptions } from '@modelcontextprotocol/client';
import type { RunningRde } from './harness';

/** The official MCP SDK client, connected with an API key as its bearer; on the 2026-07-28 revision unless told. */
export async function mcpClient(
  rde: RunningRde,
  key: string,
  versionNegotiation: ClientOptions['versionNegotiation'] = { mode: { pin: '2026-07-28' } },
): Promise<Client> {
  const client = new Client({ name: 'rde-e2e', version: '1.0.0' }, { versionNegotiation });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${rde.baseUrl}/api/v2/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${key}` } },
    }),
  );
  return client;
}
