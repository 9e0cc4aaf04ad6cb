import { randomUUID } from 'node:crypto';
import type { KeyValue, Logger } from '@rde/platform';

/**
 * Runs `round` on a timer, each round leased through the key-value store so one replica does it;
 * the lease lapses before the next round, so any replica may take that one.
 */
export class LeasedTimer {
  private readonly holder = randomUUID();
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;

  constructor(
    private readonly name: string,
    private readonly keyValue: KeyValue,
    private readonly logger: Logger,
    private readonly intervalMs: number,
    private readonly round: () => Promise<number>,
  ) {}

  start(): void {
    this.timer = setInterval(() => {
      this.running ??= this.runRound().then(() => {
        this.running = undefined;
      });
    }, this.intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  /** One round if this replica takes the lease; returns what the round did (0 without the lease). */
  async runRound(): Promise<number> {
    try {
      const leaseMs = Math.max(1, Math.floor(this.intervalMs * 0.9));
      if (!(await this.keyValue.setIfAbsent(`${this.name}-lease`, this.holder, leaseMs))) return 0;
      return await this.round();
    } catch (error) {
      this.logger.error({ err: error, job: this.name }, 'job round failed; the next round retries');
      return 0;
    }
  }
}
