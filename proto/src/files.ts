import path from 'node:path';

/** The folder holding `rde/<service>/v1/*.proto`, shipped with the package for gRPC reflection. */
export const protoRoot = path.resolve(__dirname, '..');

/** The main contract file of a service, relative to `protoRoot`. */
export function protoFileOf(service: string): string {
  return `rde/${service}/v1/${service}.proto`;
}
