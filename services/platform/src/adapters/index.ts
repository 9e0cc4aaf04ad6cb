export * from './factory';
export { InMemoryDocumentStore } from './memory/document-store';
export { InMemoryBus, InMemoryBusLog, type InMemoryBusOptions } from './memory/bus';
export { InMemoryKeyValue } from './memory/key-value';
export { MongoConnection, MongoDocumentStore } from './mongo/document-store';
export { KafkaBus, type KafkaBusOptions } from './kafka/bus';
export { RedisKeyValue } from './redis/key-value';
export { defaultRetryBackoff, type RetryBackoff } from './handler-retry';
