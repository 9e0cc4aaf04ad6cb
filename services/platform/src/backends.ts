import type { Clock } from './clock';
import type { Bus } from './ports/bus';
import type { DocumentStore } from './ports/document-store';
import type { KeyValue } from './ports/key-value';
import type { ServiceName } from './service-names';

/**
 * Who connects to the bus (its Kafka client id): a service by its registry name, the migrate
 * command, or a test's own client, whose id says `test`.
 */
export type BusClientId = ServiceName | 'rde-migrate' | `${string}test${string}`;

/**
 * What a module gets to persist and communicate with. The factory picks the embedded adapters in
 * all-in-one mode and the production adapters (MongoDB, Kafka, Redis) when configured.
 */
export interface Backends {
  readonly clock: Clock;
  /** The service's own database. */
  documentStore(database: string): Promise<DocumentStore>;
  bus(clientId: BusClientId): Promise<Bus>;
  keyValue(namespace: string): Promise<KeyValue>;
  close(): Promise<void>;
}
