import { connectRpcClients, type AddressBook, type BillingClient, type RpcClients } from '@rde/platform';

export type { BillingClient };

/** Billing (and its payment pages: where a run refused for want of credits can be paid for), catalog and dataset. */
export type WaterfallClients = RpcClients<'billing' | 'subscriptions' | 'catalog' | 'dataset'>;

export type SubscriptionsClient = WaterfallClients['subscriptions'];
export type CatalogClient = WaterfallClients['catalog'];
export type DatasetClient = WaterfallClients['dataset'];

/**
 * The waterfall's downstreams. Their contracts mark which RPCs are safe to retry on another replica
 * (Reserve by hold id, CreateDataset by the dataset id derived from the run id, UpdateRows by
 * position, InvokeProvider by the invocation id); the client kit reads that.
 */
export function createWaterfallClients(addresses: AddressBook, deadlineMs: number): WaterfallClients {
  return connectRpcClients(addresses, deadlineMs, ['billing', 'subscriptions', 'catalog', 'dataset']);
}
