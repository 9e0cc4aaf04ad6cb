import { HealthProbe, type AddressBook, type ServingStatus } from '@rde/platform';
import { CONTRACT_SERVICES, type ContractService } from '@rde/proto';

/** Every service the gateway translates public routes to: every service with a contract. */
export const DOWNSTREAMS = CONTRACT_SERVICES;

/** The health of every downstream, asked concurrently through the standard gRPC health service. */
export class DownstreamHealth {
  private readonly probes: Map<ContractService, HealthProbe>;

  constructor(addresses: AddressBook) {
    this.probes = new Map(DOWNSTREAMS.map((name) => [name, new HealthProbe(addresses.get(name))]));
  }

  async check(deadlineMs: number): Promise<Record<ContractService, ServingStatus>> {
    const entries = await Promise.all(
      [...this.probes].map(async ([name, probe]) => [name, await probe.check(deadlineMs)] as const),
    );
    return Object.fromEntries(entries) as Record<ContractService, ServingStatus>;
  }

  close(): void {
    for (const probe of this.probes.values()) probe.close();
  }
}
