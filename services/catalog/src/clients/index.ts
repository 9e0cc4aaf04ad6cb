import { createClient, type AddressBook, type BillingClient, type ServiceClient } from '@rde/platform';
import { billing, dataset } from '@rde/proto';

export type DatasetClient = ServiceClient<typeof dataset.DatasetServiceService>['rpc'];

export interface CatalogClients {
  readonly billing: BillingClient;
  readonly dataset: DatasetClient;
  close(): void;
}

/**
 * The catalog's downstreams. Their contracts mark Reserve idempotent (by hold id) and CreateDataset
 * (by the dataset id the catalog derives from the run id), so the client kit retries both.
 */
export function createCatalogClients(addresses: AddressBook, deadlineMs: number): CatalogClients {
  const billingClient = createClient(billing.BillingServiceService, {
    address: addresses.get('billing'),
    deadlineMs,
  });
  const datasetClient = createClient(dataset.DatasetServiceService, {
    address: addresses.get('dataset'),
    deadlineMs,
  });
  return {
    billing: billingClient.rpc,
    dataset: datasetClient.rpc,
    close: () => [billingClient, datasetClient].forEach((client) => client.close()),
  };
}
