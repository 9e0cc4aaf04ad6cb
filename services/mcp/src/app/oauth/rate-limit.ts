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

  /** Counts a request; past the limit, 429 with `retry_after`: whole seconds until the window ends (RFC 6585 §4). */
  async take(address: string): Promise<void> {
    const key = `oauth-${this.name}:${address}`;
    const count = await this.counters.increment(key, WINDOW_MS);
    if (count > this.perMinute) {
      const retryAfter = Math.max(1, Math.ceil(((await this.counters.ttl(key)) ?? WINDOW_MS) / 1000));
      const description = `Too many ${this.name} requests from this address; try again in ${retryAfter} s`;
      throw httpError(429, {
        detail: description,
        error: 'rate_limited',
        error_description: description,
        retry_after: retryAfter,
      });
    }
  }
}
