import { randomUUID } from 'node:crypto';
import type { KeyValue, Logger } from '@rde/platform';
import type { CreditBook } from '../credit-book';

const LEASE_KEY = 'hold-reaper-lease';

/**
 * Releases expired holds on a timer. Each round is leased through the key-value store so one
 * replica does it; the lease lapses before the next round, so any replica may take that one.
 */
export class HoldReaper {
  private readonly holder = randomUUID();
  private timer?: NodeJS.Timeout;
  private round?: Promise<void>;

  constructor(
    private readonly book: CreditBook,
    private readonly keyValue: KeyValue,
    private readonly logger: Logger,
    private readonly intervalMs: number,
  ) {}

  start(): void {
    this.timer = setInterval(() => {
      this.round ??= this.runRound().then(() => {
        this.round = undefined;
      });
    }, this.intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.round;
  }

  /** One round if this replica takes the lease; returns how many holds it released. */
  async runRound(): Promise<number> {
    try {
      const leaseMs = Math.max(1, Math.floor(this.intervalMs * 0.9));
      if (!(await this.keyValue.setIfAbsent(LEASE_KEY, this.holder, leaseMs))) return 0;
      return await this.book.releaseExpiredHolds();
    } catch (error) {
      this.logger.error({ err: error }, 'hold reaper round failed; the next round retries');
      return 0;
    }
  }
}
