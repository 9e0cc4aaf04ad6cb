/**
 * The bus port: at-least-once topic delivery with consumer groups. Kafka (kafkajs) in production,
 * an in-process log otherwise. Handlers must be idempotent: a message is redelivered whenever a
 * consumer stops between processing and committing.
 */
export interface BusMessage {
  /** The partition key: the workspace id, so one workspace's events stay ordered. */
  key: string;
  value: Buffer;
  headers?: Record<string, string>;
}

export interface DeliveredMessage extends BusMessage {
  topic: string;
  partition: number;
  offset: string;
}

export type MessageHandler = (message: DeliveredMessage) => Promise<void>;

/** What the broker delivered in one fetch: messages of one partition, in offset order, never empty. */
export type BatchHandler = (messages: DeliveredMessage[]) => Promise<void>;

export interface Subscription {
  /** Stops consuming; offsets of fully handled messages are committed. */
  stop(): Promise<void>;
}

export interface SubscribeOptions {
  /** The consumer group, named after the consuming service (e.g. `billing`). */
  group: string;
  topic: string;
  /** Start from the earliest retained offset when the group has none (default true). */
  fromBeginning?: boolean;
}

/** A topic as an operator sizes it for production (`rde migrate --topic=name:partitions:replication`). */
export interface TopicSpec {
  readonly topic: string;
  readonly partitions: number;
  readonly replicationFactor: number;
}

export interface Bus {
  /** Creates the topics that do not exist yet (existing ones are left as they are); a no-op in memory. */
  ensureTopics(topics: readonly TopicSpec[]): Promise<void>;
  publish(topic: string, messages: BusMessage[]): Promise<void>;
  /** The offset of a message is committed only after `handler` resolves. */
  subscribe(options: SubscribeOptions, handler: MessageHandler): Promise<Subscription>;
  /**
   * The same contract a batch at a time, for consumers that write what a batch carries in a few
   * bulk writes: the batch's offsets are committed only after `handler` resolves, and a batch that
   * fails is retried whole (its handler must be idempotent for every message in it).
   */
  subscribeBatches(options: SubscribeOptions, handler: BatchHandler): Promise<Subscription>;
  ping(): Promise<void>;
  close(): Promise<void>;
}
