import type { Consumer, EachBatchPayload, IHeaders, KafkaMessage } from 'kafkajs';
import type { Logger } from '../../logger';
import type { BatchHandler, DeliveredMessage, Subscription } from '../../ports/bus';
import { handleUntilDone, type RetryBackoff } from '../handler-retry';
import { kafkaConsumerLag } from '../../metrics';
import { withMessageSpans } from './message-spans';

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
export class KafkaSubscription implements Subscription {
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
