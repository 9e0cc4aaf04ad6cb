import { httpError, type KeyValue } from '@rde/platform';

const WINDOW_MS = 60_000;

/**
 * A one-minute window per client address, opened by its first request and counted in the
 * key-value store (Redis in distributed mode), so every replica shares one count.
 */
export class RateLimit {
  constructor(
    private readonly counters: KeyValue,
    private readonly name: string,
    private readonly perMinute: number,
  ) {}

  async take(address: string): Promise<void> {
    const count = await this.counters.increment(`oauth-${this.name}:${address}`, WINDOW_MS);
    if (count > this.perMinute) {
      const description = `Too many ${this.name} requests from this address; try again within a minute`;
      throw httpError(429, { detail: description, error: 'rate_limited', error_description: description });
    }
  }
}
