import type { Bus, DeliveredMessage, Subscription } from '../../../src/ports/bus';
import { waitUntil } from './wait';

export interface Collector {
  /** Every message delivered so far, in delivery order. */
  messages: DeliveredMessage[];
  /** Resolves with the messages once at least `count` arrived. */
  waitFor(count: number, timeoutMs?: number): Promise<DeliveredMessage[]>;
  subscription: Subscription;
}

/** Subscribes `group` to `topic` and keeps every delivered message. */
export async function collect(bus: Bus, topic: string, group: string): Promise<Collector> {
  const messages: DeliveredMessage[] = [];
  const subscription = await bus.subscribe({ topic, group }, async (message) => {
    messages.push(message);
  });
  return {
    messages,
    subscription,
    async waitFor(count, timeoutMs = 20_000) {
      await waitUntil(() => messages.length >= count, timeoutMs);
      return messages;
    },
  };
}
