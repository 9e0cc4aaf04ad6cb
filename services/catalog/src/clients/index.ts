import { connectRpcClients, type AddressBook, type RpcClients } from '@rde/platform';

export type CatalogClients = RpcClients<'billing' | 'dataset'>;

export type DatasetClient = CatalogClients['dataset'];

/**
 * The catalog's downstreams. Their contracts mark Reserve idempotent (by hold id) and CreateDataset
 * (by the dataset id the catalog derives from the run id), so the client kit retries both.
 */
export function createCatalogClients(addresses: AddressBook, deadlineMs: number): CatalogClients {
  return connectRpcClients(addresses, deadlineMs, ['billing', 'dataset']);
}
