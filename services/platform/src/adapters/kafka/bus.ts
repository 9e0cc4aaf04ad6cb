import {
  Kafka,
  Partitioners,
  type Admin,
  type Consumer,
  type EachBatchPayload,
  type IHeaders,
  type KafkaMessage,
  type Producer,
} from 'kafkajs';
import type { Logger } from '../../logger';
import type {
  Bus,
  BatchHandler,
  BusMessage,
  DeliveredMessage,
  MessageHandler,
  SubscribeOptions,
  Subscription,
  TopicSpec,
} from '../../ports/bus';
import { getOrOpen } from '../get-or-create';
import { defaultRetryBackoff, handleUntilDone, type RetryBackoff } from '../handler-retry';
import { kafkaLogLevel, pinoLogCreator } from './log';
import { kafkaConsumerLag } from '../../metrics';
import { withMessageSpans } from './message-spans';
import { createTopicsWithLeaders } from './topics';

/**
 * Topics not created beforehand (`rde migrate`) are created on demand with these; a single-broker
 * development cluster has replication 1.
 */
const TOPIC_PARTITIONS = 3;
const TOPIC_REPLICATION = 1;

export interface KafkaBusOptions {
  brokers: string[];
  clientId: string;
  logger: Logger;
  /** How long the broker waits for a silent consumer before giving its partitions to another. */
  sessionTimeoutMs?: number;
  backoff?: RetryBackoff;
}

/**
 * The production bus. kafkajs (in maintenance) is used here and nowhere else: everything else sees
 * only the Bus port, so replacing the client library touches this folder alone.
 */
export class KafkaBus implements Bus {
  private readonly kafka: Kafka;
  private producer?: Promise<Producer>;
  private admin?: Promise<Admin>;
  private readonly topics = new Map<string, Promise<void>>();
  private readonly subscriptions = new Set<KafkaSubscription>();

  constructor(private readonly options: KafkaBusOptions) {
    this.kafka = new Kafka({
      clientId: options.clientId,
      brokers: options.brokers,
      logLevel: kafkaLogLevel,
      logCreator: pinoLogCreator(options.logger),
    });
  }

  async ensureTopics(topics: readonly TopicSpec[]): Promise<void> {
    if (topics.length === 0) return;
    await createTopicsWithLeaders(
      await this.connectedAdmin(),
      topics.map(({ topic, partitions, replicationFactor }) => ({
        topic,
        numPartitions: partitions,
        replicationFactor,
      })),
    );
  }

  async publish(topic: string, messages: BusMessage[]): Promise<void> {
    await this.ensureTopic(topic);
    const producer = await this.connectedProducer();
    await producer.send({
      topic,
      acks: -1,
      messages: messages.map(({ key, value, headers }) => ({ key, value, ...(headers && { headers }) })),
    });
  }

  /** A batch of one: kafkajs' eachBatch, with each message handled and committed on its own. */
  subscribe(options: SubscribeOptions, handler: MessageHandler): Promise<Subscription> {
    return this.subscribeInBatchesOf(1, options, ([message]) => handler(message!));
  }

  subscribeBatches(options: SubscribeOptions, handler: BatchHandler): Promise<Subscription> {
    return this.subscribeInBatchesOf(Infinity, options, handler);
  }

  private async subscribeInBatchesOf(
    size: number,
    options: SubscribeOptions,
    handler: BatchHandler,
  ): Promise<Subscription> {
    await this.ensureTopic(options.topic);
    const consumer = this.kafka.consumer({
      groupId: options.group,
      sessionTimeout: this.options.sessionTimeoutMs ?? 10_000,
      heartbeatInterval: 1_000,
      // a fetch long-polls this long; stop() waits for it, so shutdown is no slower than this
      maxWaitTimeInMs: 1_000,
      allowAutoTopicCreation: false,
    });
    const subscription = new KafkaSubscription(
      consumer,
      { size, handler },
      {
        group: options.group,
        logger: this.options.logger,
        backoff: this.options.backoff ?? defaultRetryBackoff,
        onStopped: () => this.subscriptions.delete(subscription),
      },
    );
    this.subscriptions.add(subscription);
    try {
      await subscription.start(options.topic, options.fromBeginning ?? true);
    } catch (error) {
      await subscription.stop();
      throw error;
    }
    return subscription;
  }

  async ping(): Promise<void> {
    await (await this.connectedAdmin()).describeCluster();
  }

  async close(): Promise<void> {
    await Promise.all([...this.subscriptions].map((subscription) => subscription.stop()));
    await Promise.all([this.producer, this.admin].map(async (client) => (await client)?.disconnect()));
  }

  private connectedProducer(): Promise<Producer> {
    this.producer ??= connected(
      this.kafka.producer({
        // exactly one copy per send even when a retry follows a lost acknowledgement
        idempotent: true,
        maxInFlightRequests: 1,
        allowAutoTopicCreation: false,
        createPartitioner: Partitioners.DefaultPartitioner,
      }),
      () => (this.producer = undefined),
    );
    return this.producer;
  }

  private connectedAdmin(): Promise<Admin> {
    this.admin ??= connected(this.kafka.admin(), () => (this.admin = undefined));
    return this.admin;
  }

  private ensureTopic(topic: string): Promise<void> {
    return getOrOpen(this.topics, topic, async () => {
      await createTopicsWithLeaders(await this.connectedAdmin(), [
        { topic, numPartitions: TOPIC_PARTITIONS, replicationFactor: TOPIC_REPLICATION },
      ]);
    });
  }
}

/**
 * Resolves once `consumer` has joined its group; rejects on a crash kafkajs gives up on. After a
 * retriable crash (e.g. the group's coordinator still loading) kafkajs restarts the consumer
 * itself, so the start goes on waiting for the join rather than failing the process.
 */
export function joinedGroup(
  consumer: Pick<Consumer, 'on' | 'events'>,
  onCrash: (error: Error, restart: boolean) => void,
): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    consumer.on(consumer.events.GROUP_JOIN, () => resolve());
    consumer.on(consumer.events.CRASH, ({ payload }) => {
      onCrash(payload.error, payload.restart);
      if (!payload.restart) reject(payload.error);
    });
  });
}

/** Connects `client`; on failure calls `forget`, so the next use tries again instead of failing forever. */
async function connected<C extends { connect(): Promise<void> }>(client: C, forget: () => void): Promise<C> {
  try {
    await client.connect();
    return client;
  } catch (error) {
    forget();
    throw error;
  }
}

interface KafkaSubscriptionOptions {
  /** The consumer group, the lag metric's label. */
  group: string;
  logger: Logger;
  backoff: RetryBackoff;
  onStopped: () => void;
}

/**
 * One consumer in its group. Each fetched batch is handled `size` messages at a time (retried until
 * it succeeds), and only then the last one's offset + 1 is committed; a consumer that dies before
 * that leaves those messages to the next one.
 */
class KafkaSubscription implements Subscription {
  private readonly stopping = new AbortController();
  private stopped?: Promise<void>;
  /** The messages being handled and committed, which stop() lets finish. */
  private inFlight: Promise<void> = Promise.resolve();

  constructor(
    private readonly consumer: Consumer,
    private readonly batches: { size: number; handler: BatchHandler },
    private readonly options: KafkaSubscriptionOptions,
  ) {}

  /** Resolves once the consumer has joined its group, so messages published next reach it. */
  async start(topic: string, fromBeginning: boolean): Promise<void> {
    const { consumer } = this;
    const joined = joinedGroup(consumer, (error, restart) =>
      this.options.logger.error({ err: error, topic, restart }, 'kafka consumer crashed'),
    );
    consumer.on(consumer.events.END_BATCH_PROCESS, ({ payload }) =>
      kafkaConsumerLag.set(
        { group: this.options.group, topic: payload.topic, partition: String(payload.partition) },
        Number(payload.offsetLag),
      ),
    );
    await consumer.connect();
    await consumer.subscribe({ topic, fromBeginning });
    await consumer.run({
      autoCommit: false,
      // An offset counts as done only once committed: what a stopped consumer did not finish is
      // fetched again, never skipped.
      eachBatchAutoResolve: false,
      eachBatch: (payload) => {
        this.inFlight = this.handleBatch(payload);
        return this.inFlight;
      },
    });
    await joined;
  }

  private async handleBatch({ batch, heartbeat, resolveOffset, isRunning, isStale }: EachBatchPayload): Promise<void> {
    const { topic, partition } = batch;
    const messages = batch.messages.map((message) => toDelivered(topic, partition, message));
    for (let from = 0; from < messages.length && isRunning() && !isStale(); from += this.batches.size) {
      const chunk = messages.slice(from, from + this.batches.size);
      const handled = await handleUntilDone(() => withMessageSpans(chunk, () => this.batches.handler(chunk)), {
        signal: this.stopping.signal,
        logger: this.options.logger,
        backoff: this.options.backoff,
        beforeRetry: heartbeat,
        context: { topic, partition, offset: chunk[0]!.offset },
      });
      // Stopped while still failing: commit nothing, the group's next consumer gets them again.
      if (!handled) return;
      const last = chunk[chunk.length - 1]!.offset;
      await this.consumer.commitOffsets([{ topic, partition, offset: (BigInt(last) + 1n).toString() }]);
      resolveOffset(last);
      await heartbeat();
    }
  }

  stop(): Promise<void> {
    this.stopped ??= (async () => {
      this.stopping.abort();
      await this.inFlight.catch(() => undefined); // its failure is kafkajs' to report
      await this.consumer.disconnect();
      this.options.onStopped();
    })();
    return this.stopped;
  }
}

function toDelivered(topic: string, partition: number, message: KafkaMessage): DeliveredMessage {
  return {
    topic,
    partition,
    offset: message.offset,
    key: message.key?.toString() ?? '',
    value: message.value ?? Buffer.alloc(0),
    ...(message.headers && Object.keys(message.headers).length > 0 && { headers: headerStrings(message.headers) }),
  };
}

function headerStrings(headers: IHeaders): Record<string, string> {
  const strings: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) strings[name] = Array.isArray(value) ? value.join(',') : value.toString();
  }
  return strings;
}
