import type { Clock, KeyValue, Logger } from '@rde/platform';
import type { Clients } from './clients';
import type { GatewayConfig } from './config';
import type { DownstreamHealth } from './downstreams';

/** What every route module is given. */
export interface GatewayDependencies {
  readonly config: GatewayConfig;
  readonly logger: Logger;
  readonly clock: Clock;
  readonly clients: Clients;
  /** The gateway's key-value namespace: the Idempotency-Key records (shared by every replica). */
  readonly keyValue: KeyValue;
  readonly downstreams: DownstreamHealth;
  readonly isDraining: () => boolean;
  /** The origin every published URL starts with (decision 0055): configuration, never a request header. */
  readonly publicOrigin: () => string;
}
