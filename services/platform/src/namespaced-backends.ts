import type { Backends } from './backends';
import type { Bus, DeliveredMessage, SubscribeOptions } from './ports/bus';

/**
 * Prefixes every database, topic, consumer group and key namespace, so several deployments (or
 * test runs) can share one set of servers without seeing each other's data or messages.
 */
export function namespacedBackends(inner: Backends, prefix: string): Backends {
  if (!prefix) return inner;
  return {
    clock: inner.clock,
    documentStore: (database) => inner.documentStore(`${prefix}${database}`),
    keyValue: (namespace) => inner.keyValue(`${prefix}${namespace}`),
    bus: async (clientId) => prefixedBus(await inner.bus(clientId), prefix),
    close: () => inner.close(),
  };
}

function prefixedBus(bus: Bus, prefix: string): Bus {
  const prefixed = (options: SubscribeOptions) => ({
    ...options,
    topic: `${prefix}${options.topic}`,
    group: `${prefix}${options.group}`,
  });
  const unprefixed = (message: DeliveredMessage) => ({ ...message, topic: message.topic.slice(prefix.length) });
  return {
    ensureTopics: (topics) => bus.ensureTopics(topics.map((spec) => ({ ...spec, topic: `${prefix}${spec.topic}` }))),
    publish: (topic, messages) => bus.publish(`${prefix}${topic}`, messages),
    subscribe: (options, handler) => bus.subscribe(prefixed(options), (message) => handler(unprefixed(message))),
    subscribeBatches: (options, handler) =>
      bus.subscribeBatches(prefixed(options), (messages) => handler(messages.map(unprefixed))),
    ping: () => bus.ping(),
    close: () => bus.close(),
  };
}
