import { connectRpcClients, RPC_CONTRACTS, type AddressBook, type RpcClients, type RpcContract } from '@rde/platform';

/**
 * One promise-wrapped gRPC client per contract (the gateway translates public routes to every one),
 * addressed through the address book. Only the RPCs their contracts mark idempotent are retried.
 */
export type Clients = RpcClients<RpcContract>;

export function createClients(addresses: AddressBook, deadlineMs: number): Clients {
  return connectRpcClients(addresses, deadlineMs, Object.keys(RPC_CONTRACTS) as RpcContract[]);
}
