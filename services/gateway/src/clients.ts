import { createClient, type AddressBook, type ServiceClient } from '@rde/platform';
import { auth, billing, catalog, dataset, signin, waterfall } from '@rde/proto';
import type { ServiceDefinition } from '@grpc/grpc-js';

/**
 * One promise-wrapped gRPC client per downstream, addressed through the address book. Only the
 * RPCs their contracts mark idempotent are retried.
 */
export interface Clients {
  readonly auth: ServiceClient<typeof auth.AuthServiceService>['rpc'];
  readonly signin: ServiceClient<typeof signin.SignInServiceService>['rpc'];
  readonly billing: ServiceClient<typeof billing.BillingServiceService>['rpc'];
  readonly catalog: ServiceClient<typeof catalog.CatalogServiceService>['rpc'];
  readonly dataset: ServiceClient<typeof dataset.DatasetServiceService>['rpc'];
  readonly waterfall: ServiceClient<typeof waterfall.WaterfallServiceService>['rpc'];
  close(): void;
}

export function createClients(addresses: AddressBook, deadlineMs: number): Clients {
  const opened: { close(): void }[] = [];
  // Which RPCs are retried is the contract's `idempotency_level`, read by the client kit.
  const connect = <D extends ServiceDefinition>(service: string, definition: D) => {
    const client = createClient(definition, { address: addresses.get(service), deadlineMs });
    opened.push(client);
    return client.rpc;
  };
  return {
    auth: connect('auth', auth.AuthServiceService),
    signin: connect('auth', signin.SignInServiceService),
    billing: connect('billing', billing.BillingServiceService),
    catalog: connect('catalog', catalog.CatalogServiceService),
    dataset: connect('dataset', dataset.DatasetServiceService),
    waterfall: connect('waterfall', waterfall.WaterfallServiceService),
    close: () => opened.forEach((client) => client.close()),
  };
}
