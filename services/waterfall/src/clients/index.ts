import { clientSet, type AddressBook, type BillingClient, type ServiceClient } from '@rde/platform';

export type { BillingClient };
import { billing, billingSubscriptions, catalog, dataset } from '@rde/proto';

export type SubscriptionsClient = ServiceClient<typeof billingSubscriptions.SubscriptionServiceService>['rpc'];
export type CatalogClient = ServiceClient<typeof catalog.CatalogServiceService>['rpc'];
export type DatasetClient = ServiceClient<typeof dataset.DatasetServiceService>['rpc'];

export interface WaterfallClients {
  readonly billing: BillingClient;
  /** Billing's payment pages: where a run refused for want of credits can be paid for. */
  readonly subscriptions: SubscriptionsClient;
  readonly catalog: CatalogClient;
  readonly dataset: DatasetClient;
  close(): void;
}

/**
 * The waterfall's downstreams. Their contracts mark which RPCs are safe to retry on another replica
 * (Reserve by hold id, CreateDataset by the dataset id derived from the run id, UpdateRows by
 * position, InvokeProvider by the invocation id); the client kit reads that.
 */
export function createWaterfallClients(addresses: AddressBook, deadlineMs: number): WaterfallClients {
  const clients = clientSet(addresses, deadlineMs);
  return {
    billing: clients.connect('billing', billing.BillingServiceService),
    subscriptions: clients.connect('billing', billingSubscriptions.SubscriptionServiceService),
    catalog: clients.connect('catalog', catalog.CatalogServiceService),
    dataset: clients.connect('dataset', dataset.DatasetServiceService),
    close: () => clients.close(),
  };
}
