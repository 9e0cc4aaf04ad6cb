import { createClient, type AddressBook, type ServiceClient } from '@rde/platform';
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
  const clients = {
    catalog: createClient(catalog.CatalogServiceService, { address: addresses.get('catalog'), deadlineMs }),
    skills: createClient(catalogSkills.SkillServiceService, { address: addresses.get('catalog'), deadlineMs }),
    billing: createClient(billing.BillingServiceService, { address: addresses.get('billing'), deadlineMs }),
    dataset: createClient(dataset.DatasetServiceService, { address: addresses.get('dataset'), deadlineMs }),
    waterfall: createClient(waterfall.WaterfallServiceService, { address: addresses.get('waterfall'), deadlineMs }),
    workflow: createClient(workflow.WorkflowServiceService, { address: addresses.get('workflow'), deadlineMs }),
  };
  return {
    catalog: clients.catalog.rpc,
    skills: clients.skills.rpc,
    billing: clients.billing.rpc,
    dataset: clients.dataset.rpc,
    waterfall: clients.waterfall.rpc,
    workflow: clients.workflow.rpc,
    close: () => Object.values(clients).forEach((client) => client.close()),
  };
}

/** Auth, for the consent step: who the browser's session cookie is, and which workspaces they belong to. */
export type AuthClient = ServiceClient<typeof auth.AuthServiceService>['rpc'];

export function createAuthClient(addresses: AddressBook, deadlineMs: number): { rpc: AuthClient; close(): void } {
  return createClient(auth.AuthServiceService, { address: addresses.get('auth'), deadlineMs });
}
