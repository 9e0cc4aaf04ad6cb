import { createClient, type AddressBook, type ServiceClient } from '@rde/platform';
import { auth, billing, catalog, dataset } from '@rde/proto';

/**
 * One promise-wrapped gRPC client per downstream, addressed through the address book. Only the
 * RPCs listed as idempotent are retried.
 */
export interface Clients {
  readonly auth: ServiceClient<typeof auth.AuthServiceService>['rpc'];
  readonly billing: ServiceClient<typeof billing.BillingServiceService>['rpc'];
  readonly catalog: ServiceClient<typeof catalog.CatalogServiceService>['rpc'];
  readonly dataset: ServiceClient<typeof dataset.DatasetServiceService>['rpc'];
  close(): void;
}

export function createClients(addresses: AddressBook, deadlineMs: number): Clients {
  const authClient = createClient(auth.AuthServiceService, {
    address: addresses.get('auth'),
    serviceName: 'rde.auth.v1.AuthService',
    deadlineMs,
    idempotent: ['resolveBearer', 'getWorkspace', 'listKeys'],
  });
  const billingClient = createClient(billing.BillingServiceService, {
    address: addresses.get('billing'),
    serviceName: 'rde.billing.v1.BillingService',
    deadlineMs,
    idempotent: ['listPlans', 'getPlanState', 'getBalance', 'listLedger', 'reserve'],
  });
  const catalogClient = createClient(catalog.CatalogServiceService, {
    address: addresses.get('catalog'),
    serviceName: 'rde.catalog.v1.CatalogService',
    deadlineMs,
    idempotent: ['listTools', 'getTool', 'getMethod'],
  });
  const datasetClient = createClient(dataset.DatasetServiceService, {
    address: addresses.get('dataset'),
    serviceName: 'rde.dataset.v1.DatasetService',
    deadlineMs,
    idempotent: ['listDatasets', 'getDataset', 'getRows', 'exportCsv'],
  });
  const all = [authClient, billingClient, catalogClient, datasetClient];
  return {
    auth: authClient.rpc,
    billing: billingClient.rpc,
    catalog: catalogClient.rpc,
    dataset: datasetClient.rpc,
    close: () => all.forEach((client) => client.close()),
  };
}
