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
 * The waterfall's downstreams. Their contracts mark what is retried: Reserve (idempotent by hold
 * id), CreateDataset (by the dataset id derived from the run id), InvokeProvider (by the invocation
 * id derived from run, step and request) and the reads.
 */
export function createWaterfallClients(addresses: AddressBook, deadlineMs: number): WaterfallClients {
  const clients = clientSet(addresses, deadlineMs);
  return {
    billing: clients.connect('billing', billing.BillingServiceService),
    catalog: clients.connect('catalog', catalog.CatalogServiceService),
    dataset: clients.connect('dataset', dataset.DatasetServiceService),
    close: () => clients.close(),
  };
}
