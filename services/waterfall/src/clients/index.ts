import { createClient, type AddressBook, type ServiceClient } from '@rde/platform';
import { billing, catalog, dataset } from '@rde/proto';

export type BillingClient = ServiceClient<typeof billing.BillingServiceService>['rpc'];
export type CatalogClient = ServiceClient<typeof catalog.CatalogServiceService>['rpc'];
export type DatasetClient = ServiceClient<typeof dataset.DatasetServiceService>['rpc'];

export interface WaterfallClients {
  readonly billing: BillingClient;
  readonly catalog: CatalogClient;
  readonly dataset: DatasetClient;
  close(): void;
}

/**
 * The waterfall's downstreams. Reserve is idempotent by hold id, CreateDataset by the dataset id
 * derived from the run id, InvokeProvider by the invocation id derived from run, step and page:
 * all are safe to retry on another replica.
 */
export function createWaterfallClients(addresses: AddressBook, deadlineMs: number): WaterfallClients {
  const opened: { close(): void }[] = [];
  const connect = <D extends Parameters<typeof createClient>[0]>(
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
    billing: connect('billing', billing.BillingServiceService, 'rde.billing.v1.BillingService', [
      'reserve',
      'getBalance',
    ]),
    catalog: connect('catalog', catalog.CatalogServiceService, 'rde.catalog.v1.CatalogService', [
      'getWaterfall',
      'getMethod',
      'invokeProvider',
    ]),
    dataset: connect('dataset', dataset.DatasetServiceService, 'rde.dataset.v1.DatasetService', [
      'createDataset',
      'getRows',
      'updateRows',
    ]),
    close: () => opened.forEach((client) => client.close()),
  };
}
