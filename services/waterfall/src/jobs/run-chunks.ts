import { WorkSlots, type Bus, type DeliveredMessage, type Logger, type Subscription } from '@rde/platform';
import { topics, waterfallEvents } from '@rde/proto';
import type { ChunkWorker, RunEnds, RunHolds } from '../app/runs';
import { chunkIdOf } from '../domain/runs/plan';
import type { DatasetRunRepository } from '../store/dataset-runs';
import type { RunChunkRepository } from '../store/run-chunks';

/** The consumer group every waterfall replica joins for run chunks. */
const CONSUMER_GROUP = 'waterfall';
/** Between two attempts to join the consumer group. */
const SUBSCRIBE_RETRY_MS = 1_000;
/** Chunks, uncounted chunks and unfinished runs looked at per sweep. */
const SWEEP_SIZE = 50;

/**
 * Works dataset runs' chunks on this replica (decision 0032): chunk messages from the topic, and
 * every `sweepMs` the chunks whose worker died or that wait for budget, the chunks ended but not
 * counted, and the runs whose last count did not end them; on a loop of its own, the run holds
 * due for renewal. At most `slots` chunks are walked at
 * once; a message is taken when a slot is free and its offset committed once its walk has started
 * (a worker that dies leaves the chunk's lease to lapse and the sweep to take it).
 */
export class RunChunkWork {
  private subscription?: Subscription;
  private timer?: NodeJS.Timeout;
  private holdTimer?: NodeJS.Timeout;
  private stopped = false;
  private readonly slots: WorkSlots;

  constructor(
    private readonly bus: Bus,
    private readonly worker: ChunkWorker,
    private readonly ends: RunEnds,
    private readonly chunks: RunChunkRepository,
    private readonly runs: DatasetRunRepository,
    private readonly logger: Logger,
    private readonly options: { slots: number; sweepMs: number },
    private readonly holds: RunHolds,
  ) {
    this.slots = new WorkSlots(options.slots, (error, chunkId) =>
      logger.error({ err: error, chunkId }, 'run chunk failed; it is tried again'),
    );
  }

  async start(): Promise<void> {
    this.schedule();
    this.scheduleHolds();
    void this.subscribe();
  }

  /**
   * Joins the consumer group, trying again while the broker refuses (a topic still being created):
   * the sweep works every chunk meanwhile, so a replica never fails to start for it.
   */
  private async subscribe(): Promise<void> {
    while (!this.stopped && !this.subscription) {
      try {
        const subscription = await this.bus.subscribe(
          { group: CONSUMER_GROUP, topic: topics.ENRICH_RUN_CHUNKS },
          (message) => this.take(message),
        );
        if (this.stopped) await subscription.stop();
        else this.subscription = subscription;
      } catch (error) {
        this.logger.warn(
          { err: error },
          'run chunk subscription failed; trying again, the sweep works chunks meanwhile',
        );
        await new Promise((resolve) => setTimeout(resolve, SUBSCRIBE_RETRY_MS).unref());
      }
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    clearTimeout(this.holdTimer);
    await this.subscription?.stop();
  }

  private async take(message: DeliveredMessage): Promise<void> {
    let chunk: waterfallEvents.EnrichRunChunk;
    try {
      chunk = waterfallEvents.EnrichRunChunk.decode(message.value);
    } catch (error) {
      // Retrying a message that can never be read would stall the partition.
      this.logger.error({ err: error, offset: message.offset }, 'undecodable run chunk skipped');
      return;
    }
    await this.walk(chunkIdOf(chunk.runId, chunk.chunk));
  }

  /** Waits for a free slot, then walks the chunk in the background. */
  private async walk(chunkId: string): Promise<void> {
    await this.slots.take(chunkId, () => this.worker.work(chunkId));
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      void this.sweep()
        .catch((error: unknown) => this.logger.warn({ err: error }, 'run chunk sweep failed'))
        .finally(() => this.schedule());
    }, this.options.sweepMs);
    this.timer.unref();
  }

  /**
   * Run holds are renewed on their own loop: the sweep may wait for a free slot as long as a
   * chunk takes, and a hold must not lapse meanwhile.
   */
  private scheduleHolds(): void {
    if (this.stopped) return;
    this.holdTimer = setTimeout(() => {
      void this.holds
        .keep(SWEEP_SIZE)
        .catch((error: unknown) => this.logger.warn({ err: error }, 'run hold renewal failed'))
        .finally(() => this.scheduleHolds());
    }, this.options.sweepMs);
    this.holdTimer.unref();
  }

  private async sweep(): Promise<void> {
    for (const chunk of await this.chunks.uncounted(SWEEP_SIZE)) await this.ends.count(chunk);
    for (const run of await this.runs.unfinished(SWEEP_SIZE)) await this.ends.finish(run);
    for (const chunk of (await this.chunks.lapsed(SWEEP_SIZE)).slice(0, this.slots.free)) await this.walk(chunk._id);
  }
}
