import { clientSet, type AddressBook, type ServiceClient } from '@rde/platform';
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
  const clients = clientSet(addresses, deadlineMs);
  return {
    billing: clients.connect('billing', billing.BillingServiceService, 'rde.billing.v1.BillingService', [
      'reserve',
      'getBalance',
    ]),
    catalog: clients.connect('catalog', catalog.CatalogServiceService, 'rde.catalog.v1.CatalogService', [
      'getWaterfall',
      'invokeProvider',
    ]),
    dataset: clients.connect('dataset', dataset.DatasetServiceService, 'rde.dataset.v1.DatasetService', [
      'createDataset',
    ]),
    close: () => clients.close(),
  };
}
