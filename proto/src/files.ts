import path from 'node:path';

/** The folder holding `rde/<service>/v1/*.proto`, shipped with the package for gRPC reflection. */
export const protoRoot = path.resolve(__dirname, '..');

/** The services with a contract here (`rde/<service>/v1`): the gRPC services. */
export const CONTRACT_SERVICES = ['auth', 'billing', 'catalog', 'waterfall', 'dataset', 'workflow', 'mcp'] as const;
export type ContractService = (typeof CONTRACT_SERVICES)[number];

/** The main contract file of a service, relative to `protoRoot`. */
export function protoFileOf(service: ContractService): string {
  return `rde/${service}/v1/${service}.proto`;
}
