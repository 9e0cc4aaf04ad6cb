import { HealthProbe, type AddressBook, type ServingStatus } from '@rde/platform';

/** Every service the gateway translates public routes to. */
export const DOWNSTREAMS = ['auth', 'billing', 'catalog', 'waterfall', 'dataset', 'workflow', 'mcp'] as const;
export type Downstream = (typeof DOWNSTREAMS)[number];

/** The health of every downstream, asked concurrently through the standard gRPC health service. */
export class DownstreamHealth {
  private readonly probes: Map<Downstream, HealthProbe>;

  constructor(addresses: AddressBook) {
    this.probes = new Map(DOWNSTREAMS.map((name) => [name, new HealthProbe(addresses.get(name))]));
  }

  async check(deadlineMs: number): Promise<Record<Downstream, ServingStatus>> {
    const entries = await Promise.all(
      [...this.probes].map(async ([name, probe]) => [name, await probe.check(deadlineMs)] as const),
    );
    return Object.fromEntries(entries) as Record<Downstream, ServingStatus>;
  }

  close(): void {
    for (const probe of this.probes.values()) probe.close();
  }
}
