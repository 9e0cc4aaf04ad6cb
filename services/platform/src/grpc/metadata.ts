import { Metadata } from '@grpc/grpc-js';
import { common } from '@rde/proto';

/** Binary metadata keys (the `-bin` suffix makes grpc-js carry raw bytes). */
export const CALLER_KEY = 'rde-caller-bin';
export const ERROR_KEY = 'rde-error-bin';

export type Caller = common.Caller;

export function writeCaller(metadata: Metadata, caller: Caller): void {
  metadata.set(CALLER_KEY, Buffer.from(common.Caller.encode(caller).finish()));
}

/** The caller set by the gateway; services trust it only inside the cluster (NetworkPolicy). */
export function readCaller(metadata: Metadata): Caller | undefined {
  const [raw] = metadata.get(CALLER_KEY);
  return Buffer.isBuffer(raw) ? common.Caller.decode(raw) : undefined;
}
