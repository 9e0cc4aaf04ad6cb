import type { Logger } from './logger';
import type { Bus, SubscribeOptions, Subscription } from './ports/bus';

/** Between two attempts to join the consumer group. */
const JOIN_RETRY_MS = 1_000;

export interface GroupConsumerOptions<Message> extends SubscribeOptions {
  /** The message type (a generated protobuf message): decoding throws for bytes that are not one. */
  readonly message: { decode(bytes: Uint8Array): Message };
  /** What a message is, for the logs, e.g. `run chunk`. */
  readonly what: string;
}

/**
 * One replica's membership of a consumer group. Joining is tried again while the broker refuses
 * (a topic still being created), so a replica never fails to start for it; a message that can never
 * be read is skipped, logged (retrying it would stall the partition); the rest go to the handler.
 */
export class GroupConsumer<Message> {
  private subscription?: Subscription;
  private stopped = false;

  constructor(
    private readonly bus: Bus,
    private readonly logger: Logger,
    private readonly options: GroupConsumerOptions<Message>,
  ) {}

  /** Resolves once joined (or stopped first). */
  async start(handle: (message: Message) => Promise<void>): Promise<void> {
    const { group, topic, fromBeginning } = this.options;
    while (!this.stopped && !this.subscription) {
      try {
        const subscription = await this.bus.subscribe({ group, topic, fromBeginning }, async (message) => {
          const decoded = this.decoded(message.value, message.offset);
          if (decoded !== undefined) await handle(decoded);
        });
        if (this.stopped) await subscription.stop();
        else this.subscription = subscription;
      } catch (error) {
        this.logger.warn({ err: error }, `${this.options.what} subscription failed; trying again`);
        await new Promise((resolve) => setTimeout(resolve, JOIN_RETRY_MS).unref());
      }
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.subscription?.stop();
  }

  private decoded(bytes: Uint8Array, offset: string): Message | undefined {
    try {
      return this.options.message.decode(bytes);
    } catch (error) {
      this.logger.error({ err: error, offset }, `undecodable ${this.options.what} skipped`);
      return undefined;
    }
  }
}
