import type { ServiceDefinition } from '@grpc/grpc-js';
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
import type { AddressBook } from '../module';
import type { ServiceName } from '../service-names';
import type { PromiseClient } from './client';
import { clientSet } from './client-set';

/**
 * Every gRPC contract a service calls, by the name its callers give the client, with the module
 * that serves it: one table, so that a service's downstreams are a list of these names.
 */
export const RPC_CONTRACTS = {
  auth: ['auth', auth.AuthServiceService],
  signin: ['auth', signin.SignInServiceService],
  billing: ['billing', billing.BillingServiceService],
  spendCaps: ['billing', billingCaps.SpendCapServiceService],
  sessions: ['billing', billingSessions.SessionServiceService],
  overview: ['billing', billingOverview.OverviewServiceService],
  subscriptions: ['billing', billingSubscriptions.SubscriptionServiceService],
  catalog: ['catalog', catalog.CatalogServiceService],
  distribution: ['catalog', distribution.DistributionServiceService],
  skills: ['catalog', catalogSkills.SkillServiceService],
  dataset: ['dataset', dataset.DatasetServiceService],
  // SearchPeople holds and spends credits: its contract does not mark it idempotent, so it is never retried.
  waterfall: ['waterfall', waterfall.WaterfallServiceService],
  mcp: ['mcp', mcp.McpServiceService],
  mcpOAuth: ['mcp', mcpOAuth.AuthorizationServiceService],
  workflow: ['workflow', workflow.WorkflowServiceService],
} as const satisfies Record<string, readonly [ServiceName, ServiceDefinition]>;

export type RpcContract = keyof typeof RPC_CONTRACTS;

/** One promise-wrapped client per named contract, closed together. */
export type RpcClients<Name extends RpcContract> = {
  readonly [K in Name]: PromiseClient<(typeof RPC_CONTRACTS)[K][1]>;
} & { close(): void };

/**
 * The clients of the named contracts, each addressed through the address book. Which RPCs are
 * retried is the contract's `idempotency_level`, read by the client kit.
 */
export function connectRpcClients<const Name extends RpcContract>(
  addresses: AddressBook,
  deadlineMs: number,
  names: readonly Name[],
): RpcClients<Name> {
  const { connect, close } = clientSet(addresses, deadlineMs);
  const clients = names.map((name) => {
    const [service, definition]: readonly [ServiceName, ServiceDefinition] = RPC_CONTRACTS[name];
    return [name, connect(service, definition)] as const;
  });
  return { ...Object.fromEntries(clients), close } as RpcClients<Name>;
}
