import type { KeyValue } from '@rde/platform';

/** How long a replica trusts its last read of a vendor's shared pause before asking again. */
const READ_CACHE_MS = 100;

/**
 * A vendor's 429 shared by every replica (decision 0032): the pause a vendor asked for is kept in
 * the key-value port (Redis in production) until it ends, and every replica's calls to that vendor
 * wait it out, so two replicas do not knock on a vendor that told one of them to wait.
 */
export class VendorPauses {
  private readonly cache = new Map<string, { until: number; readAt: number }>();

  constructor(
    private readonly keyValue: KeyValue,
    private readonly now: () => number,
  ) {}

  /** When the vendor's current pause ends (0: none). */
  async until(vendor: string): Promise<number> {
    const cached = this.cache.get(vendor);
    if (cached && this.now() - cached.readAt < READ_CACHE_MS) return cached.until;
    const stored = await this.keyValue.get(keyOf(vendor));
    const until = stored === null ? 0 : Number(stored);
    this.cache.set(vendor, { until, readAt: this.now() });
    return until;
  }

  /** Records that the vendor asked for `ms` of quiet; a later end wins over an earlier one. */
  async pause(vendor: string, ms: number): Promise<void> {
    const until = this.now() + ms;
    if (until <= (await this.until(vendor))) return;
    await this.keyValue.set(keyOf(vendor), String(until), { ttlMs: ms });
    this.cache.set(vendor, { until, readAt: this.now() });
  }
}

const keyOf = (vendor: string) => `vendor-pause:${vendor}`;
