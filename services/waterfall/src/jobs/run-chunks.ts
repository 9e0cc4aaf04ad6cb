import { GroupConsumer, PeriodicPass, WorkSlots, type Bus, type Logger } from '@rde/platform';
import { topics, waterfallEvents } from '@rde/proto';
import type { ChunkWorker, RunEnds, RunHolds } from '../app/runs';
import { chunkIdOf } from '../domain/runs/plan';
import type { DatasetRunRepository } from '../store/dataset-runs';
import type { RunChunkRepository } from '../store/run-chunks';

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
  private readonly slots: WorkSlots;
  private readonly consumer: GroupConsumer<waterfallEvents.EnrichRunChunk>;
  private readonly sweeps: PeriodicPass;
  /**
   * Run holds are renewed on their own loop: the sweep may wait for a free slot as long as a
   * chunk takes, and a hold must not lapse meanwhile.
   */
  private readonly holdRenewals: PeriodicPass;

  constructor(
    bus: Bus,
    private readonly worker: ChunkWorker,
    private readonly ends: RunEnds,
    private readonly chunks: RunChunkRepository,
    private readonly runs: DatasetRunRepository,
    logger: Logger,
    options: { slots: number; sweepMs: number },
    holds: RunHolds,
  ) {
    this.slots = new WorkSlots(options.slots, (error, chunkId) =>
      logger.error({ err: error, chunkId }, 'run chunk failed; it is tried again'),
    );
    // The consumer group every waterfall replica joins for run chunks.
    this.consumer = new GroupConsumer(bus, logger, {
      group: 'waterfall',
      topic: topics.ENRICH_RUN_CHUNKS,
      message: waterfallEvents.EnrichRunChunk,
      what: 'run chunk',
    });
    this.sweeps = new PeriodicPass(
      options.sweepMs,
      () => this.sweep(),
      (error) => logger.warn({ err: error }, 'run chunk sweep failed'),
    );
    this.holdRenewals = new PeriodicPass(
      options.sweepMs,
      () => holds.keep(SWEEP_SIZE),
      (error) => logger.warn({ err: error }, 'run hold renewal failed'),
    );
  }

  async start(): Promise<void> {
    this.sweeps.start();
    this.holdRenewals.start();
    // Joined in the background: the sweep works every chunk meanwhile, so a replica never fails to start for it.
    void this.consumer.start((chunk) => this.walk(chunkIdOf(chunk.runId, chunk.chunk)));
  }

  async stop(): Promise<void> {
    this.sweeps.stop();
    this.holdRenewals.stop();
    await this.consumer.stop();
  }

  /** Waits for a free slot, then walks the chunk in the background. */
  private async walk(chunkId: string): Promise<void> {
    await this.slots.take(chunkId, () => this.worker.work(chunkId));
  }

  private async sweep(): Promise<void> {
    for (const chunk of await this.chunks.uncounted(SWEEP_SIZE)) await this.ends.count(chunk);
    for (const run of await this.runs.unfinished(SWEEP_SIZE)) await this.ends.finish(run);
    for (const chunk of (await this.chunks.lapsed(SWEEP_SIZE)).slice(0, this.slots.free)) await this.walk(chunk._id);
  }
}
