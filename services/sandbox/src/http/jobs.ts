import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';

export interface Job<T> {
  readonly id: string;
  readonly vendor: string;
  readonly result: T;
  readonly readyAt: number;
  /** Where the vendor calls back when the job is done, if the submission gave a URL. */
  readonly callbackUrl?: string;
}

export interface Callback {
  readonly url: string;
  /** The body POSTed, given the job's id. */
  readonly body: (jobId: string) => unknown;
}

/** Jobs kept at most; the oldest go first. Enough for any test or benchmark, bounded for a long run. */
const MAX_JOBS = 200_000;

/**
 * Async and batch jobs of every vendor. A job's result is decided when it is submitted (the
 * universe is deterministic); it becomes visible to polls at `readyAt`, when the callback, if
 * one was given, is POSTed.
 */
export class JobBoard {
  private readonly jobs = new Map<string, Job<unknown>>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private sequence = 0;

  constructor(
    private readonly logger: FastifyBaseLogger,
    private readonly now: () => number = Date.now,
  ) {}

  submit<T>(vendor: string, idPrefix: string, result: T, durationMs: number, callback?: Callback): Job<T> {
    const id = `${idPrefix}${(++this.sequence).toString(36)}${randomBytes(4).toString('hex')}`;
    const job: Job<T> = {
      id,
      vendor,
      result,
      readyAt: this.now() + durationMs,
      ...(callback && { callbackUrl: callback.url }),
    };
    this.jobs.set(`${vendor}/${id}`, job);
    if (this.jobs.size > MAX_JOBS) this.jobs.delete(this.jobs.keys().next().value!);
    if (callback) this.schedule(durationMs, () => this.deliver(vendor, id, callback));
    return job;
  }

  find<T>(vendor: string, id: string): Job<T> | undefined {
    return this.jobs.get(`${vendor}/${id}`) as Job<T> | undefined;
  }

  isDone(job: Job<unknown>): boolean {
    return this.now() >= job.readyAt;
  }

  /** Forgets every job and cancels the callbacks not yet sent. */
  clear(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    this.jobs.clear();
  }

  private schedule(delayMs: number, task: () => Promise<void>): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      void task();
    }, delayMs);
    this.timers.add(timer);
  }

  private async deliver(vendor: string, id: string, callback: Callback): Promise<void> {
    try {
      const response = await fetch(callback.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(callback.body(id)),
        signal: AbortSignal.timeout(5_000),
      });
      await response.body?.cancel();
      this.logger.debug({ vendor, job: id, status: response.status }, 'job callback delivered');
    } catch (error) {
      this.logger.warn({ vendor, job: id, err: error }, 'job callback failed');
    }
  }
}
