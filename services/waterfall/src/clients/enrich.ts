import { createClient, type AddressBook, type ServiceClient } from '@rde/platform';
import { billing, catalog, dataset } from '@rde/proto';

export type BillingClient = ServiceClient<typeof billing.BillingServiceService>['rpc'];
export type DatasetClient = ServiceClient<typeof dataset.DatasetServiceService>['rpc'];
export type CatalogClient = ServiceClient<typeof catalog.CatalogServiceService>['rpc'];

export interface EnrichClients {
  readonly billing: BillingClient;
  readonly dataset: DatasetClient;
  readonly catalog: CatalogClient;
  close(): void;
}

/**
 * The enrichment's downstreams. Reserve is idempotent by hold id, CreateDataset by the dataset id
 * derived from the run id, UpdateRows by position, and catalog reads by nature: all safe to retry.
 */
export function createEnrichClients(addresses: AddressBook, deadlineMs: number): EnrichClients {
  const billingClient = createClient(billing.BillingServiceService, {
    address: addresses.get('billing'),
    serviceName: 'rde.billing.v1.BillingService',
    deadlineMs,
    idempotent: ['reserve'],
  });
  const datasetClient = createClient(dataset.DatasetServiceService, {
    address: addresses.get('dataset'),
    serviceName: 'rde.dataset.v1.DatasetService',
    deadlineMs,
    idempotent: ['createDataset', 'updateRows', 'getRows'],
  });
  const catalogClient = createClient(catalog.CatalogServiceService, {
    address: addresses.get('catalog'),
    serviceName: 'rde.catalog.v1.CatalogService',
    deadlineMs,
    idempotent: ['getMethod'],
  });
  return {
    billing: billingClient.rpc,
    dataset: datasetClient.rpc,
    catalog: catalogClient.rpc,
    close: () => [billingClient, datasetClient, catalogClient].forEach((client) => client.close()),
  };
}
