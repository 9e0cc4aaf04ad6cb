import { clientSet, createClient, type AddressBook, type ServiceClient } from '@rde/platform';
import { auth, billing, catalog, catalogSkills, dataset, waterfall, workflow } from '@rde/proto';

/** The services the MCP tools call (SearchPeople is never retried: it spends): the same RPCs the REST routes call, so charging is identical. */
export interface ToolClients {
  readonly catalog: ServiceClient<typeof catalog.CatalogServiceService>['rpc'];
  readonly skills: ServiceClient<typeof catalogSkills.SkillServiceService>['rpc'];
  readonly billing: ServiceClient<typeof billing.BillingServiceService>['rpc'];
  readonly dataset: ServiceClient<typeof dataset.DatasetServiceService>['rpc'];
  readonly waterfall: ServiceClient<typeof waterfall.WaterfallServiceService>['rpc'];
  readonly workflow: ServiceClient<typeof workflow.WorkflowServiceService>['rpc'];
  close(): void;
}

export function createToolClients(addresses: AddressBook, deadlineMs: number): ToolClients {
  const { connect, close } = clientSet(addresses, deadlineMs);
  return {
    catalog: connect('catalog', catalog.CatalogServiceService),
    skills: connect('catalog', catalogSkills.SkillServiceService),
    billing: connect('billing', billing.BillingServiceService),
    dataset: connect('dataset', dataset.DatasetServiceService),
    waterfall: connect('waterfall', waterfall.WaterfallServiceService),
    workflow: connect('workflow', workflow.WorkflowServiceService),
    close,
  };
}

/** Auth, for the consent step: who the browser's session cookie is, and which workspaces they belong to. */
export type AuthClient = ServiceClient<typeof auth.AuthServiceService>['rpc'];

export function createAuthClient(addresses: AddressBook, deadlineMs: number): { rpc: AuthClient; close(): void } {
  return createClient(auth.AuthServiceService, { address: addresses.get('auth'), deadlineMs });
}
