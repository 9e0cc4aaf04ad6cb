import { connectRpcClients, createClient, type AddressBook, type RpcClients, type ServiceClient } from '@rde/platform';
import { auth } from '@rde/proto';

/** The services the MCP tools call (SearchPeople is never retried: it spends): the same RPCs the REST routes call, so charging is identical. */
export type ToolClients = RpcClients<'catalog' | 'skills' | 'billing' | 'dataset' | 'waterfall' | 'workflow'>;

export function createToolClients(addresses: AddressBook, deadlineMs: number): ToolClients {
  return connectRpcClients(addresses, deadlineMs, ['catalog', 'skills', 'billing', 'dataset', 'waterfall', 'workflow']);
}

/** Auth, for the consent step: who the browser's session cookie is, and which workspaces they belong to. */
export type AuthClient = ServiceClient<typeof auth.AuthServiceService>['rpc'];

export function createAuthClient(addresses: AddressBook, deadlineMs: number): { rpc: AuthClient; close(): void } {
  return createClient(auth.AuthServiceService, { address: addresses.get('auth'), deadlineMs });
}
