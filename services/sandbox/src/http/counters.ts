export interface EndpointCount {
  requests: number;
  /** Answers by HTTP status; a request still hanging (latency, timeout fault) has none yet. */
  statuses: Record<string, number>;
}

/** Request counters per vendor and endpoint: tests read them to prove a provider was or was not called. */
export class Counters {
  private counts = new Map<string, Map<string, EndpointCount>>();

  constructor(private readonly endpointsByVendor: ReadonlyMap<string, readonly string[]>) {
    this.reset();
  }

  request(vendor: string, endpoint: string): void {
    this.entry(vendor, endpoint).requests++;
  }

  response(vendor: string, endpoint: string, status: number): void {
    const statuses = this.entry(vendor, endpoint).statuses;
    statuses[status] = (statuses[status] ?? 0) + 1;
  }

  snapshot(vendor?: string): Record<string, Record<string, EndpointCount>> {
    const vendors = vendor === undefined ? [...this.counts.keys()] : [vendor];
    return Object.fromEntries(
      vendors.map((id) => [
        id,
        Object.fromEntries([...this.counts.get(id)!].map(([name, count]) => [name, structuredClone(count)])),
      ]),
    );
  }

  reset(): void {
    this.counts = new Map(
      [...this.endpointsByVendor].map(([vendor, endpoints]) => [
        vendor,
        new Map(endpoints.map((e) => [e, { requests: 0, statuses: {} }])),
      ]),
    );
  }

  private entry(vendor: string, endpoint: string): EndpointCount {
    return this.counts.get(vendor)!.get(endpoint)!;
  }
}
