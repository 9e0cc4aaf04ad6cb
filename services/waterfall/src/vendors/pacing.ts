import type { KeyValue } from '@rde/platform';

/** Requests a vendor accepts: `perSecond` sustained, up to `burst` at once (its token bucket). */
export interface VendorRate {
  readonly perSecond: number;
  readonly burst: number;
}

/** One pacing window: every replica counts its calls to a vendor in the same wall-clock second. */
const WINDOW_MS = 1_000;

/**
 * How many calls one window may send without emptying the vendor's bucket: no more than the rate
 * refills in a window, and at most half the burst, because a window's calls sent at its end and
 * the next window's sent at its start reach the vendor together.
 */
export function callsPerWindow(rate: VendorRate): number {
  return Math.max(1, Math.floor(Math.min((rate.perSecond * WINDOW_MS) / 1_000, rate.burst / 2)));
}

/**
 * A vendor's pace shared by every replica (decision 0079): a call takes a numbered place in the
 * current window from a counter in the key-value port (Redis in production, memory in the
 * all-in-one); past the window's share it waits for the next window and asks again. So two
 * replicas together send what the vendor publishes it accepts, instead of each learning it from
 * a 429.
 */
export class VendorPacing {
  constructor(
    private readonly keyValue: KeyValue,
    private readonly now: () => number,
    private readonly sleep: (ms: number) => Promise<void>,
  ) {}

  /** Resolves when the call may be sent. */
  async take(vendor: string, rate: VendorRate): Promise<void> {
    const share = callsPerWindow(rate);
    for (;;) {
      const now = this.now();
      const window = Math.floor(now / WINDOW_MS);
      // The counter outlives its window a little, for a replica whose clock runs slightly behind.
      const place = await this.keyValue.increment(`vendor-pace:${vendor}:${window}`, 2 * WINDOW_MS);
      if (place <= share) return;
      await this.sleep((window + 1) * WINDOW_MS - now);
    }
  }
}
