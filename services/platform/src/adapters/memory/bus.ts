import type { Logger } from '../../logger';
import type {
  Bus,
  BusMessage,
  BatchHandler,
  DeliveredMessage,
  MessageHandler,
  SubscribeOptions,
  Subscription,
} from '../../ports/bus';
import { getOrCreate } from '../get-or-create';
import { defaultRetryBackoff, handleUntilDone, type RetryBackoff } from '../handler-retry';

/** The in-process bus has one partition per topic: ordering per key holds because all order holds. */
const PARTITION = 0;
/** The most messages one batch handler call gets (Kafka's is bounded by bytes per partition). */
const MAX_BATCH = 500;
/** How many messages every group has handled before they are dropped together. */
const RETENTION_STEP = 1_000;

/**
 * One topic's retained messages and each consumer group's committed offset (the next offset it will
 * handle). What every group has committed is dropped, as Kafka's retention would drop it, so a
 * long-running all-in-one does not keep every message it ever published.
 */
class TopicLog {
  private messages: DeliveredMessage[] = [];
  /** The offset of `messages[0]`. */
  private base = 0;
  private readonly committed = new Map<string, number>();
  private readonly activeGroups = new Set<string>();
  private waiters: Array<() => void> = [];

  constructor(readonly name: string) {}

  private get end(): number {
    return this.base + this.messages.length;
  }

  append(messages: BusMessage[]): void {
    for (const message of messages) {
      this.messages.push({
        ...copyMessage(message),
        topic: this.name,
        partition: PARTITION,
        offset: String(this.end),
      });
    }
    const waiters = this.waiters;
    this.waiters = [];
    // Consumers hear of it on a later turn of the event loop, as a Kafka fetch arrives: a consumer then
    // never runs inside the publishing request's own chain of promises and delays its answer.
    if (waiters.length > 0) setImmediate(() => waiters.forEach((wake) => wake()));
  }

  /** Up to `size` messages from `offset`, which a group's committed offset keeps retained. */
  read(offset: number, size: number): DeliveredMessage[] {
    return this.messages.slice(offset - this.base, offset - this.base + size);
  }

  /** Resolves on the next append, or when `signal` aborts. */
  nextAppend(signal: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      const wake = () => {
        signal.removeEventListener('abort', wake);
        resolve();
      };
      this.waiters.push(wake);
      signal.addEventListener('abort', wake);
    });
  }

  /** Claims the group's single consumer slot and returns where it resumes (the earliest retained). */
  join(group: string, fromBeginning: boolean): number {
    if (this.activeGroups.has(group)) {
      throw new Error(`group ${group} already has a consumer of ${this.name} in this process`);
    }
    this.activeGroups.add(group);
    return getOrCreate(this.committed, group, () => (fromBeginning ? this.base : this.end));
  }

  leave(group: string): void {
    this.activeGroups.delete(group);
  }

  commit(group: string, nextOffset: number): void {
    this.committed.set(group, nextOffset);
    const handledByAll = Math.min(...this.committed.values());
    // Dropped in steps, so the array is not shifted on every commit.
    if (handledByAll - this.base >= RETENTION_STEP) {
      this.messages = this.messages.slice(handledByAll - this.base);
      this.base = handledByAll;
    }
  }
}

/**
 * The log every module of an all-in-one process shares, so modules really talk through it. Each
 * module gets its own InMemoryBus over it; closing one stops only that module's subscriptions.
 */
export class InMemoryBusLog {
  private readonly topics = new Map<string, TopicLog>();

  topic(name: string): TopicLog {
    return getOrCreate(this.topics, name, () => new TopicLog(name));
  }
}

export interface InMemoryBusOptions {
  logger: Logger;
  backoff?: RetryBackoff;
}

/** The embedded bus: the same at-least-once, commit-after-handle contract as the Kafka adapter. */
export class InMemoryBus implements Bus {
  private readonly subscriptions = new Set<InMemorySubscription>();

  constructor(
    private readonly log: InMemoryBusLog,
    private readonly options: InMemoryBusOptions,
  ) {}

  /** In-process topics need no creation. */
  async ensureTopics(): Promise<void> {}

  async publish(topic: string, messages: BusMessage[]): Promise<void> {
    this.log.topic(topic).append(messages);
  }

  async subscribe(options: SubscribeOptions, handler: MessageHandler): Promise<Subscription> {
    return this.subscribeInBatchesOf(1, options, ([message]) => handler(message!));
  }

  async subscribeBatches(options: SubscribeOptions, handler: BatchHandler): Promise<Subscription> {
    return this.subscribeInBatchesOf(MAX_BATCH, options, handler);
  }

  private subscribeInBatchesOf(size: number, options: SubscribeOptions, handler: BatchHandler): Subscription {
    const topic = this.log.topic(options.topic);
    const start = topic.join(options.group, options.fromBeginning ?? true);
    const subscription: InMemorySubscription = new InMemorySubscription(
      topic,
      options.group,
      start,
      { size, handler },
      { backoff: defaultRetryBackoff, ...this.options },
      () => this.subscriptions.delete(subscription),
    );
    this.subscriptions.add(subscription);
    return subscription;
  }

  async ping(): Promise<void> {}

  async close(): Promise<void> {
    await Promise.all([...this.subscriptions].map((subscription) => subscription.stop()));
  }
}

/** Delivers up to `size` messages at a time and commits them only after the handler resolved. */
class InMemorySubscription implements Subscription {
  private readonly stopping = new AbortController();
  private readonly loop: Promise<void>;

  constructor(
    private readonly topic: TopicLog,
    private readonly group: string,
    start: number,
    private readonly batches: { size: number; handler: BatchHandler },
    private readonly options: Required<InMemoryBusOptions>,
    private readonly onStopped: () => void,
  ) {
    this.loop = Promise.resolve().then(() => this.run(start)); // deliver after subscribe returns, as Kafka does
  }

  /** Waits for the message in hand; one still failing is left uncommitted for the group's next consumer. */
  async stop(): Promise<void> {
    if (this.stopping.signal.aborted) return this.loop;
    this.stopping.abort();
    await this.loop;
    this.topic.leave(this.group);
    this.onStopped();
  }

  private async run(start: number): Promise<void> {
    const { signal } = this.stopping;
    for (let offset = start; !signal.aborted;) {
      const batch = this.topic.read(offset, this.batches.size);
      if (batch.length === 0) {
        await this.topic.nextAppend(signal);
        continue;
      }
      const handled = await handleUntilDone(() => this.batches.handler(batch.map(copyDelivered)), {
        signal,
        logger: this.options.logger,
        backoff: this.options.backoff,
        context: { topic: this.topic.name, group: this.group, offset },
      });
      if (!handled) return;
      offset += batch.length;
      this.topic.commit(this.group, offset);
    }
  }
}

/** Handlers get their own copies: one consumer must not change what another one reads. */
function copyMessage(message: BusMessage): BusMessage {
  return {
    key: message.key,
    value: Buffer.from(message.value),
    ...(message.headers && { headers: { ...message.headers } }),
  };
}

function copyDelivered(message: DeliveredMessage): DeliveredMessage {
  return { ...message, ...copyMessage(message) };
}
