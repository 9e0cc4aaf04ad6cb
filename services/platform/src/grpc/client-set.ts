import type { ServiceDefinition } from '@grpc/grpc-js';
import type { AddressBook } from '../module';
import type { ServiceName } from '../service-names';
import { createClient, type PromiseClient } from './client';

/**
 * The downstream clients of one service: each addressed through the address book, closed together.
 * Which RPCs are retried is the contract's `idempotency_level`, read by the client kit.
 */
export interface ClientSet {
  connect<D extends ServiceDefinition>(service: ServiceName, definition: D): PromiseClient<D>;
  close(): void;
}

export function clientSet(addresses: AddressBook, deadlineMs: number): ClientSet {
  const opened: { close(): void }[] = [];
  return {
    connect(service, definition) {
      const client = createClient(definition, { address: addresses.get(service), deadlineMs });
      opened.push(client);
      return client.rpc;
    },
    close: () => opened.forEach((client) => client.close()),
  };
}
