import { clientSet, type AddressBook, type BillingClient, type ServiceClient } from '@rde/platform';
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
  const { connect, close } = clientSet(addresses, deadlineMs);
  return {
    billing: connect('billing', billing.BillingServiceService),
    dataset: connect('dataset', dataset.DatasetServiceService),
    close,
  };
}
