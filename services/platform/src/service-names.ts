import type { ContractService } from '@rde/proto';

/**
 * The module registry's names (services/rde registers one module per name): the gRPC services of
 * proto/, the gateway and the simulated vendors. A misspelt name fails to compile.
 */
export type ServiceName = ContractService | 'gateway' | 'sandbox';
