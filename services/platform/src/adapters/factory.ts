import { systemClock, type Clock } from '../clock';
import type { Backends, BusClientId } from '../backends';
import { createLogger, type Logger } from '../logger';
import type { Bus } from '../ports/bus';
import type { DocumentStore } from '../ports/document-store';
import type { KeyValue } from '../ports/key-value';
import { getOrOpen } from './get-or-create';
import { KafkaBus } from './kafka/bus';
import { InMemoryBus, InMemoryBusLog } from './memory/bus';
import { InMemoryDocumentStore } from './memory/document-store';
import { InMemoryKeyValue } from './memory/key-value';
import { MongoConnection } from './mongo/document-store';
import { RedisKeyValue } from './redis/key-value';

interface CommonOptions {
  clock?: Clock;
  logger?: Logger;
}

/** All-in-one mode: every module of the process shares one bus log, and each store is in memory. */
export interface MemoryBackendsOptions extends CommonOptions {
  kind: 'memory';
}

/** Distributed mode: MongoDB, Kafka and Redis, addresses given by the caller's config. */
export interface ProductionBackendsOptions extends CommonOptions {
  kind: 'production';
  mongoUrl: string;
  kafkaBrokers: string[];
  redisUrl: string;
}

export type BackendsOptions = MemoryBackendsOptions | ProductionBackendsOptions;

export function createBackends(options: BackendsOptions): Backends {
  const clock = options.clock ?? systemClock;
  const logger = options.logger ?? createLogger('backends');
  return options.kind === 'memory' ? new MemoryBackends(clock, logger) : new ProductionBackends(options, clock, logger);
}

/** Hands out one adapter per database, client id or namespace, and closes them all together. */
abstract class CachingBackends implements Backends {
  private readonly stores = new Map<string, Promise<DocumentStore>>();
  private readonly buses = new Map<string, Promise<Bus>>();
  private readonly keyValues = new Map<string, Promise<KeyValue>>();

  constructor(readonly clock: Clock) {}

  documentStore(database: string): Promise<DocumentStore> {
    return getOrOpen(this.stores, database, () => this.openStore(database));
  }

  bus(clientId: BusClientId): Promise<Bus> {
    return getOrOpen(this.buses, clientId, () => this.openBus(clientId));
  }

  keyValue(namespace: string): Promise<KeyValue> {
    return getOrOpen(this.keyValues, namespace, () => this.openKeyValue(namespace));
  }

  /** Closes buses first (their handlers may still write), then stores and key-value connections. */
  async close(): Promise<void> {
    await closeAll(this.buses);
    await closeAll(this.stores, this.keyValues);
    await this.closeShared();
  }

  protected abstract openStore(database: string): Promise<DocumentStore>;
  protected abstract openBus(clientId: string): Promise<Bus>;
  protected abstract openKeyValue(namespace: string): Promise<KeyValue>;
  protected abstract closeShared(): Promise<void>;
}

class MemoryBackends extends CachingBackends {
  private readonly busLog = new InMemoryBusLog();

  constructor(
    clock: Clock,
    private readonly logger: Logger,
  ) {
    super(clock);
  }

  protected async openStore(): Promise<DocumentStore> {
    return new InMemoryDocumentStore();
  }

  protected async openBus(): Promise<Bus> {
    return new InMemoryBus(this.busLog, { logger: this.logger });
  }

  protected async openKeyValue(): Promise<KeyValue> {
    return new InMemoryKeyValue(this.clock);
  }

  protected async closeShared(): Promise<void> {}
}

class ProductionBackends extends CachingBackends {
  private readonly mongo = new Map<string, Promise<MongoConnection>>();

  constructor(
    private readonly options: ProductionBackendsOptions,
    clock: Clock,
    private readonly logger: Logger,
  ) {
    super(clock);
  }

  /** One MongoClient for the process; each service gets its own database on it. */
  protected async openStore(database: string): Promise<DocumentStore> {
    const connection = await getOrOpen(this.mongo, 'client', () => MongoConnection.connect(this.options.mongoUrl));
    return connection.store(database);
  }

  protected async openBus(clientId: string): Promise<Bus> {
    return new KafkaBus({ brokers: this.options.kafkaBrokers, clientId, logger: this.logger });
  }

  protected openKeyValue(namespace: string): Promise<KeyValue> {
    return RedisKeyValue.connect(this.options.redisUrl, namespace, this.logger);
  }

  protected async closeShared(): Promise<void> {
    await closeAll(this.mongo);
  }
}

/** Closes every opened adapter even when one fails, then reports the first failure. */
async function closeAll(...caches: Array<Map<string, Promise<{ close(): Promise<void> }>>>): Promise<void> {
  const opened = caches.flatMap((cache) => [...cache.values()]);
  caches.forEach((cache) => cache.clear());
  const results = await Promise.allSettled(opened.map(async (adapter) => (await adapter).close()));
  const failure = results.find((result): result is PromiseRejectedResult => result.status === 'rejected');
  if (failure) throw failure.reason;
}
