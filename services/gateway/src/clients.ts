import { createClient, type AddressBook, type ServiceClient } from '@rde/platform';
import {
  auth,
  billing,
  billingCaps,
  billingOverview,
  billingSessions,
  billingSubscriptions,
  catalog,
  dataset,
} from '@rde/proto';
import type { ServiceDefinition } from '@grpc/grpc-js';

/**
 * One promise-wrapped gRPC client per downstream, addressed through the address book. Only the
 * RPCs listed as idempotent are retried.
 */
export interface Clients {
  readonly auth: ServiceClient<typeof auth.AuthServiceService>['rpc'];
  readonly billing: ServiceClient<typeof billing.BillingServiceService>['rpc'];
  readonly spendCaps: ServiceClient<typeof billingCaps.SpendCapServiceService>['rpc'];
  readonly sessions: ServiceClient<typeof billingSessions.SessionServiceService>['rpc'];
  readonly overview: ServiceClient<typeof billingOverview.OverviewServiceService>['rpc'];
  readonly subscriptions: ServiceClient<typeof billingSubscriptions.SubscriptionServiceService>['rpc'];
  readonly catalog: ServiceClient<typeof catalog.CatalogServiceService>['rpc'];
  readonly dataset: ServiceClient<typeof dataset.DatasetServiceService>['rpc'];
  close(): void;
}

export function createClients(addresses: AddressBook, deadlineMs: number): Clients {
  const opened: { close(): void }[] = [];
  const connect = <D extends ServiceDefinition>(
    service: string,
    definition: D,
    serviceName: string,
    idempotent: (keyof D & string)[],
  ) => {
    const client = createClient(definition, { address: addresses.get(service), serviceName, deadlineMs, idempotent });
    opened.push(client);
    return client.rpc;
  };
  return {
    auth: connect('auth', auth.AuthServiceService, 'rde.auth.v1.AuthService', [
      'resolveBearer',
      'getWorkspace',
      'listKeys',
      'revokeKey',
      'listMembers',
    ]),
    billing: connect('billing', billing.BillingServiceService, 'rde.billing.v1.BillingService', [
      'listPlans',
      'getPlanState',
      'getBalance',
      'listLedger',
      'reserve',
    ]),
    // Setting a cap to the same value twice answers the same: safe to retry.
    spendCaps: connect('billing', billingCaps.SpendCapServiceService, 'rde.billing.v1.SpendCapService', [
      'setWorkspaceCap',
      'setSessionDefaultCap',
      'setMemberCap',
      'listMemberCaps',
    ]),
    sessions: connect('billing', billingSessions.SessionServiceService, 'rde.billing.v1.SessionService', [
      'getSession',
      'endSession',
    ]),
    overview: connect('billing', billingOverview.OverviewServiceService, 'rde.billing.v1.OverviewService', [
      'getOverview',
      'getAutoTopUp',
    ]),
    // A provider event applies once by its id: a retried delivery changes nothing.
    subscriptions: connect(
      'billing',
      billingSubscriptions.SubscriptionServiceService,
      'rde.billing.v1.SubscriptionService',
      ['applyProviderEvent'],
    ),
    catalog: connect('catalog', catalog.CatalogServiceService, 'rde.catalog.v1.CatalogService', [
      'listTools',
      'getTool',
      'getMethod',
    ]),
    dataset: connect('dataset', dataset.DatasetServiceService, 'rde.dataset.v1.DatasetService', [
      'listDatasets',
      'getDataset',
      'getRows',
      'exportCsv',
    ]),
    close: () => opened.forEach((client) => client.close()),
  };
}
