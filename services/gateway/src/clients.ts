import { createClient, type AddressBook, type ServiceClient } from '@rde/platform';
import { auth, billing, catalog, dataset, waterfall } from '@rde/proto';
import type { ServiceDefinition } from '@grpc/grpc-js';

/**
 * One promise-wrapped gRPC client per downstream, addressed through the address book. Only the
 * RPCs listed as idempotent are retried.
 */
export interface Clients {
  readonly auth: ServiceClient<typeof auth.AuthServiceService>['rpc'];
  readonly billing: ServiceClient<typeof billing.BillingServiceService>['rpc'];
  readonly catalog: ServiceClient<typeof catalog.CatalogServiceService>['rpc'];
  readonly dataset: ServiceClient<typeof dataset.DatasetServiceService>['rpc'];
  readonly waterfall: ServiceClient<typeof waterfall.WaterfallServiceService>['rpc'];
  close(): void;
}

export function createClients(addresses: AddressBook, deadlineMs: number): Clients {
  const opened: { close(): void }[] = [];
  const connect = <D extends ServiceDefinition>(
    service: string,
    definition: D,
    serviceName: string,
    idempotent: (keyof D & string)[],
  ) => {
    const client = createClient(definition, { address: addresses.get(service), serviceName, deadlineMs, idempotent });
    opened.push(client);
    return client.rpc;
  };
  return {
    auth: connect('auth', auth.AuthServiceService, 'rde.auth.v1.AuthService', [
      'resolveBearer',
      'getWorkspace',
      'listKeys',
      'revokeKey',
    ]),
    billing: connect('billing', billing.BillingServiceService, 'rde.billing.v1.BillingService', [
      'listPlans',
      'getPlanState',
      'getBalance',
      'listLedger',
      'reserve',
    ]),
    catalog: connect('catalog', catalog.CatalogServiceService, 'rde.catalog.v1.CatalogService', [
      'listTools',
      'getTool',
      'getMethod',
    ]),
    dataset: connect('dataset', dataset.DatasetServiceService, 'rde.dataset.v1.DatasetService', [
      'listDatasets',
      'getDataset',
      'getRows',
      'exportCsv',
    ]),
    // A search holds and spends credits: never retried.
    waterfall: connect('waterfall', waterfall.WaterfallServiceService, 'rde.waterfall.v1.WaterfallService', []),
    close: () => opened.forEach((client) => client.close()),
  };
}
