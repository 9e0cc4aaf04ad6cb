import { clientSet, type AddressBook, type ServiceClient } from '@rde/platform';
import {
  auth,
  billing,
  billingCaps,
  billingOverview,
  billingSessions,
  billingSubscriptions,
  catalog,
  catalogSkills,
  dataset,
  distribution,
  mcp,
  mcpOAuth,
  signin,
  waterfall,
  workflow,
} from '@rde/proto';

/**
 * One promise-wrapped gRPC client per downstream, addressed through the address book. Only the
 * RPCs their contracts mark idempotent are retried.
 */
export interface Clients {
  readonly auth: ServiceClient<typeof auth.AuthServiceService>['rpc'];
  readonly signin: ServiceClient<typeof signin.SignInServiceService>['rpc'];
  readonly billing: ServiceClient<typeof billing.BillingServiceService>['rpc'];
  readonly spendCaps: ServiceClient<typeof billingCaps.SpendCapServiceService>['rpc'];
  readonly sessions: ServiceClient<typeof billingSessions.SessionServiceService>['rpc'];
  readonly overview: ServiceClient<typeof billingOverview.OverviewServiceService>['rpc'];
  readonly subscriptions: ServiceClient<typeof billingSubscriptions.SubscriptionServiceService>['rpc'];
  readonly catalog: ServiceClient<typeof catalog.CatalogServiceService>['rpc'];
  readonly distribution: ServiceClient<typeof distribution.DistributionServiceService>['rpc'];
  readonly skills: ServiceClient<typeof catalogSkills.SkillServiceService>['rpc'];
  readonly dataset: ServiceClient<typeof dataset.DatasetServiceService>['rpc'];
  readonly waterfall: ServiceClient<typeof waterfall.WaterfallServiceService>['rpc'];
  readonly mcp: ServiceClient<typeof mcp.McpServiceService>['rpc'];
  readonly mcpOAuth: ServiceClient<typeof mcpOAuth.AuthorizationServiceService>['rpc'];
  readonly workflow: ServiceClient<typeof workflow.WorkflowServiceService>['rpc'];
  close(): void;
}

export function createClients(addresses: AddressBook, deadlineMs: number): Clients {
  const { connect, close } = clientSet(addresses, deadlineMs);
  return {
    auth: connect('auth', auth.AuthServiceService),
    signin: connect('auth', signin.SignInServiceService),
    billing: connect('billing', billing.BillingServiceService),
    spendCaps: connect('billing', billingCaps.SpendCapServiceService),
    sessions: connect('billing', billingSessions.SessionServiceService),
    overview: connect('billing', billingOverview.OverviewServiceService),
    subscriptions: connect('billing', billingSubscriptions.SubscriptionServiceService),
    catalog: connect('catalog', catalog.CatalogServiceService),
    distribution: connect('catalog', distribution.DistributionServiceService),
    skills: connect('catalog', catalogSkills.SkillServiceService),
    dataset: connect('dataset', dataset.DatasetServiceService),
    // SearchPeople holds and spends credits: its contract does not mark it idempotent, so it is never retried.
    waterfall: connect('waterfall', waterfall.WaterfallServiceService),
    mcp: connect('mcp', mcp.McpServiceService),
    mcpOAuth: connect('mcp', mcpOAuth.AuthorizationServiceService),
    workflow: connect('workflow', workflow.WorkflowServiceService),
    close,
  };
}
