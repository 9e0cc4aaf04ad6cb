import type { ServiceDefinition } from '@grpc/grpc-js';
import type { AddressBook } from '../module';
import { createClient, type PromiseClient } from './client';

/** The downstream clients of one service: each addressed through the address book, closed together. */
export interface ClientSet {
  /** A promise client of `service`; only the RPCs listed as idempotent are retried. */
  connect<D extends ServiceDefinition>(
    service: string,
    definition: D,
    serviceName: string,
    idempotent: (keyof D & string)[],
  ): PromiseClient<D>;
  close(): void;
}

export function clientSet(addresses: AddressBook, deadlineMs: number): ClientSet {
  const opened: { close(): void }[] = [];
  return {
    connect(service, definition, serviceName, idempotent) {
      const client = createClient(definition, { address: addresses.get(service), serviceName, deadlineMs, idempotent });
      opened.push(client);
      return client.rpc;
    },
    close: () => opened.forEach((client) => client.close()),
  };
}
