import { context, propagation, ROOT_CONTEXT } from '@opentelemetry/api';
import { systemClock, type Clock } from './clock';
import type { Logger } from './logger';
import type { Bus, BusMessage } from './ports/bus';
import type { Collection, Document, Filter } from './ports/document-store';
import { sleepUnlessAborted } from './adapters/abortable-sleep';
import { BackgroundLoop } from './background-loop';
import { outboxOldestEventAge, outboxPendingEvents } from './metrics';

/**
 * The transactional outbox. A state document carries its unpublished events in `_outbox`, written
 * by the same single-document update as the state change (no multi-document transactions, so there
 * is no other way to make "state changed" and "event will be published" one fact). A relay
 * publishes them and then removes exactly the published entries.
 */
export interface OutboxEvent {
  /** Deterministic (run id + step, charge id…), given by the caller: consumers deduplicate on it. */
  id: string;
  topic: string;
  /** The partition key: the workspace id. */
  key: string;
  /** base64 of the proto bytes: a string compares exactly on every backend when the relay removes it. */
  value: string;
  headers?: Record<string, string>;
  createdAt: Date;
}

export interface NewOutboxEvent {
  id: string;
  topic: string;
  key: string;
  value: Uint8Array;
  headers?: Record<string, string>;
}

/**
 * The active trace context as message headers (`traceparent`), kept with the event so its
 * publication, whenever the relay gets to it, continues the trace that wrote it. Empty when
 * telemetry is off.
 */
function traceHeaders(): Record<string, string> {
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return carrier;
}

/** A state document that may hold unpublished events. */
export type WithOutbox<T extends Document = Document> = T & { _outbox?: OutboxEvent[] };

/**
 * The `$push` part of an update that appends `events` to the outbox, e.g.
 * `updateOne({ _id, version }, { $set: { status }, $push: outboxPush([event]) })`.
 */
export function outboxPush(
  events: NewOutboxEvent[],
  clock: Clock = systemClock,
): { _outbox: { $each: OutboxEvent[] } } {
  const createdAt = new Date(clock.now());
  const trace = traceHeaders();
  return {
    _outbox: {
      $each: events.map(({ id, topic, key, value, headers }) => {
        const withTrace = { ...trace, ...headers };
        return {
          id,
          topic,
          key,
          value: Buffer.from(value).toString('base64'),
          ...(Object.keys(withTrace).length > 0 && { headers: withTrace }),
          createdAt,
        };
      }),
    },
  };
}

export interface OutboxRelayOptions {
  /** The service's collections whose documents carry an `_outbox`. */
  collections: Collection[];
  bus: Bus;
  logger: Logger;
  pollIntervalMs: number;
  /** Documents read per collection per pass. */
  batchSize?: number;
}

const PENDING: Filter = { '_outbox.0': { $exists: true } };

/**
 * Publishes outbox events at least once. A crash between publishing and removing republishes them
 * on the next pass; consumers are idempotent on the event id.
 */
export class OutboxRelay {
  private readonly background = new BackgroundLoop((signal) => this.poll(signal));
  /** relayDocument calls not yet taken into a publication, and whether one is under way. */
  private readonly requested: RelayRequest[] = [];
  private relaying = false;

  constructor(private readonly options: OutboxRelayOptions) {}

  /** Polls in the background until stop(). */
  start(): void {
    this.background.start();
  }

  /** Stops polling and waits for a pass in progress. */
  stop(): Promise<void> {
    return this.background.stop();
  }

  /** One pass over every collection; returns how many events were published. */
  async drainOnce(): Promise<number> {
    return (await this.pass()).published;
  }

  /**
   * Publishes one document's pending events now. A writer calls it right after its write, so events
   * leave at once and the poll is only the safety net. Calls made while a publication is under way
   * wait for it and then leave together (group commit): one find by `_id`s, one publish per topic,
   * one bulk removal, however many writers finished meanwhile. A lone call waits for nothing.
   */
  relayDocument(collection: Collection, id: string): Promise<number> {
    return new Promise((resolve, reject) => {
      this.requested.push({ collection, id, resolve, reject });
      if (!this.relaying) void this.relayRequested();
    });
  }

  private async relayRequested(): Promise<void> {
    this.relaying = true;
    while (this.requested.length > 0) {
      const group = this.requested.splice(0);
      for (const collection of new Set(group.map((request) => request.collection))) {
        const mine = group.filter((request) => request.collection === collection);
        try {
          const published = await this.relayDocuments(collection, [...new Set(mine.map(({ id }) => id))]);
          for (const { id, resolve } of mine) resolve(published.get(id) ?? 0);
        } catch (error) {
          for (const { reject } of mine) reject(error);
        }
      }
    }
    this.relaying = false;
  }

  /** Each document's pending events, published in the order given; returns how many each had. */
  private async relayDocuments(collection: Collection, ids: string[]): Promise<Map<string, number>> {
    const found = (await collection.find({ _id: { $in: ids }, ...PENDING })) as WithOutbox[];
    const byId = new Map(found.map((doc) => [doc._id, doc]));
    const docs = ids.flatMap((id) => byId.get(id) ?? []);
    await this.publishAll(docs.flatMap((doc) => doc._outbox ?? []));
    await this.removePublished(collection, docs);
    return new Map(docs.map((doc) => [doc._id, doc._outbox?.length ?? 0]));
  }

  private async poll(signal: AbortSignal): Promise<void> {
    do {
      let delayMs = this.options.pollIntervalMs;
      try {
        if ((await this.pass()).batchFull) delayMs = 0; // more may be waiting: go again at once
      } catch (error) {
        this.options.logger.error({ err: error }, 'outbox relay pass failed; retrying');
      }
      if (!(await sleepUnlessAborted(delayMs, signal))) return;
    } while (!signal.aborted);
  }

  private async pass(): Promise<{ published: number; batchFull: boolean }> {
    const batchSize = this.options.batchSize ?? 100;
    let published = 0;
    let batchFull = false;
    for (const collection of this.options.collections) {
      const pending = (await collection.find(PENDING, { limit: batchSize })) as WithOutbox[];
      const full = pending.length === batchSize;
      batchFull ||= full;
      // What waits is reported before publishing, so a broker outage shows as a growing backlog.
      reportBacklog(collection.name, pending);
      await this.publishAll(pending.flatMap((doc) => doc._outbox ?? []));
      await this.removePublished(collection, pending);
      published += pending.reduce((sum, doc) => sum + (doc._outbox?.length ?? 0), 0);
      if (!full) reportBacklog(collection.name, []);
      // The collections' order is the publication order (a run's parts before the run's end, whose
      // settlement releases the hold): later collections wait until this one's backlog is gone.
      if (full) break;
    }
    return { published, batchFull };
  }

  private async publishAll(events: OutboxEvent[]): Promise<void> {
    for (const run of runsByTopic(events)) {
      // Published inside the (first) writer's trace, so the consumer's span joins it too; each
      // event's own headers carry its writer's trace for the consumer's per-message span.
      const writer = propagation.extract(ROOT_CONTEXT, run.events[0]!.headers ?? {});
      await context.with(writer, () => this.options.bus.publish(run.topic, run.events.map(toBusMessage)));
    }
  }

  /**
   * $pullAll with the entries exactly as read: entries pushed meanwhile are not equal to any of
   * these, so they stay for the next pass.
   */
  private async removePublished(collection: Collection, docs: WithOutbox[]): Promise<void> {
    await collection.updateEach(
      docs.map((doc) => ({ filter: { _id: doc._id }, update: { $pullAll: { _outbox: doc._outbox ?? [] } } })),
    );
  }
}

/** A writer waiting for its document's events to be published. */
interface RelayRequest {
  collection: Collection;
  id: string;
  resolve: (published: number) => void;
  reject: (error: unknown) => void;
}

/** The backlog gauges of one collection: events seen waiting and the oldest one's age (a full batch is a floor). */
function reportBacklog(collection: string, pending: WithOutbox[]): void {
  const events = pending.flatMap((doc) => doc._outbox ?? []);
  const oldest = Math.min(...events.map((event) => new Date(event.createdAt).getTime()));
  outboxPendingEvents.set({ collection }, events.length);
  outboxOldestEventAge.set({ collection }, events.length === 0 ? 0 : Math.max(0, (Date.now() - oldest) / 1000));
}

/** Consecutive events of one topic, in outbox order: one publish call each, order kept. */
function runsByTopic(events: OutboxEvent[]): Array<{ topic: string; events: OutboxEvent[] }> {
  const runs: Array<{ topic: string; events: OutboxEvent[] }> = [];
  for (const event of events) {
    const last = runs.at(-1);
    if (last?.topic === event.topic) last.events.push(event);
    else runs.push({ topic: event.topic, events: [event] });
  }
  return runs;
}

function toBusMessage(event: OutboxEvent): BusMessage {
  return {
    key: event.key,
    value: Buffer.from(event.value, 'base64'),
    ...(event.headers && { headers: event.headers }),
  };
}
