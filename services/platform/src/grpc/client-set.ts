import type { ServiceDefinition } from '@grpc/grpc-js';
import type { AddressBook } from '../module';
import { createClient, type PromiseClient } from './client';

/** The downstream clients of one service: each addressed through the address book, closed together. */
export interface ClientSet {
  /** A promise client of `service`; which RPCs are retried is its contract's `idempotency_level`. */
  connect<D extends ServiceDefinition>(service: string, definition: D): PromiseClient<D>;
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
