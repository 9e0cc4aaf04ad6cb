import type { Logger } from '@rde/platform';
import type { ProviderJobs } from '../app/jobs';
import type { EnrichJobRepository } from '../store/enrich-jobs';

/** Jobs taken per pass; each is polled under its own lease. */
const PASS_SIZE = 50;

/**
 * Polls open provider jobs whose request has let go of them (rule 8), on every replica: each job
 * is taken under a lease, so two replicas never poll the same job at once, and a job whose poller
 * was killed is taken again when its lease lapses. Each pass also takes over enrichment runs
 * whose process died.
 */
export class EnrichJobPoller {
  private timer?: NodeJS.Timeout;
  private pass?: Promise<void>;
  private stopped = false;
  private recovering?: Promise<void>;

  constructor(
    private readonly jobs: EnrichJobRepository,
    private readonly providerJobs: ProviderJobs,
    private readonly logger: Logger,
    private readonly intervalMs: number,
    /** Takes over runs whose lease lapsed. */
    private readonly recoverRuns: () => Promise<void>,
  ) {}

  start(): void {
    this.schedule();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.pass;
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.pass = this.runPass()
        .catch((error: unknown) => this.logger.warn({ err: error }, 'provider job poll pass failed'))
        .finally(() => this.schedule());
    }, this.intervalMs);
    this.timer.unref();
  }

  private async runPass(): Promise<void> {
    const due = await this.jobs.due(PASS_SIZE);
    await Promise.all(due.map((job) => this.providerJobs.pollHandedOff(job._id)));
    // Not awaited: a taken-over run walks for as long as its rows take, while jobs keep being polled.
    if (!this.recovering) {
      this.recovering = this.recoverRuns()
        .catch((error: unknown) => this.logger.warn({ err: error }, 'enrichment run takeover failed'))
        .finally(() => (this.recovering = undefined));
    }
  }
}
