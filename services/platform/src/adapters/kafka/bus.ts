import { Kafka, Partitioners, type Admin, type Producer } from 'kafkajs';
import type { Logger } from '../../logger';
import type {
  Bus,
  BatchHandler,
  BusMessage,
  MessageHandler,
  SubscribeOptions,
  Subscription,
  TopicSpec,
} from '../../ports/bus';
import { getOrOpen } from '../get-or-create';
import { defaultRetryBackoff, type RetryBackoff } from '../handler-retry';
import { kafkaLogLevel, pinoLogCreator } from './log';
import { KafkaSubscription } from './subscription';
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
