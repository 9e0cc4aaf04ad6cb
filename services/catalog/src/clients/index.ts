import { createClient, type AddressBook, type ServiceClient } from '@rde/platform';
import { billing, dataset } from '@rde/proto';

export type BillingClient = ServiceClient<typeof billing.BillingServiceService>['rpc'];
export type DatasetClient = ServiceClient<typeof dataset.DatasetServiceService>['rpc'];

export interface CatalogClients {
  readonly billing: BillingClient;
  readonly dataset: DatasetClient;
  close(): void;
}

/**
 * The catalog's downstreams. Reserve is idempotent by hold id and CreateDataset by the dataset id
 * the catalog derives from the run id, so both are safe to retry.
 */
export function createCatalogClients(addresses: AddressBook, deadlineMs: number): CatalogClients {
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
    idempotent: ['createDataset'],
  });
  return {
    billing: billingClient.rpc,
    dataset: datasetClient.rpc,
    close: () => [billingClient, datasetClient].forEach((client) => client.close()),
  };
}
