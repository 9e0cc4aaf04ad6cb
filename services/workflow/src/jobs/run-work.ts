import { PeriodicPass, WorkSlots, type Clock, type Logger } from '@rde/platform';
import type { WorkRun } from '../app/work-run';
import type { RunQueue } from '../events/run-queue';
import type { WorkflowRunsRepository } from '../store/runs';

/** Stranded runs looked at per sweep. */
const SWEEP_SIZE = 50;

export interface RunWorkOptions {
  /** Runs worked at once on this replica. */
  readonly slots: number;
  readonly sweepMs: number;
  /** A queued run no replica took this long after it was written is taken by a sweep. */
  readonly queuedGraceMs: number;
}

/**
 * Works queued runs on this replica (decision 0074): each run message is taken when a slot is free
 * and worked in the background; every `sweepMs` the runs nobody works (a replica died mid-run: its
 * claim lapsed; a publish was lost: queued too long) are taken too, and resumed where their stored
 * steps end.
 */
export class RunWork {
  private readonly slots: WorkSlots;
  private readonly sweeps: PeriodicPass;

  constructor(
    private readonly queue: RunQueue,
    private readonly worker: WorkRun,
    private readonly runs: WorkflowRunsRepository,
    private readonly clock: Clock,
    logger: Logger,
    private readonly options: RunWorkOptions,
  ) {
    this.slots = new WorkSlots(options.slots, (error, runId) =>
      logger.error({ err: error, runId }, 'workflow run failed; a sweep takes it again'),
    );
    this.sweeps = new PeriodicPass(
      options.sweepMs,
      () => this.sweep(),
      (error) => logger.warn({ err: error }, 'workflow run sweep failed'),
    );
  }

  async start(): Promise<void> {
    this.sweeps.start();
    void this.queue.start((runId) => this.take(runId));
  }

  async stop(): Promise<void> {
    this.sweeps.stop();
    await this.queue.stop();
  }

  /** Waits for a free slot, then works the run in the background. */
  private async take(runId: string): Promise<void> {
    await this.slots.take(runId, () => this.worker.work(runId));
  }

  private async sweep(): Promise<void> {
    const now = this.clock.now();
    const stranded = await this.runs.stranded(now, now - this.options.queuedGraceMs, SWEEP_SIZE);
    for (const runId of stranded.slice(0, this.slots.free)) await this.take(runId);
  }
}
