import pino from 'pino';
import { InMemoryKeyValue, ManualClock, type Caller } from '@rde/platform';
import { buildGateway } from '../src/app';
import type { Clients } from '../src/clients';
import { gatewayConfig } from '../src/config';
import type { DownstreamHealth } from '../src/downstreams';

/** Who a stand-in auth client resolves a good bearer to. */
export const OWNER: Caller = {
  workspaceId: 'ws_1',
  userId: 'usr_1',
  role: 'owner',
  keyId: 'key_1',
  sessionId: '',
  requestId: '',
};

/**
 * The real gateway (route modules, contract, error handling) over stand-in clients: only the
 * clients a test names exist; a silent logger, no downstream health checks, a manual clock.
 */
export function gatewayOver(clients: Partial<Record<keyof Clients, unknown>>, clock = new ManualClock()) {
  return buildGateway({
    config: gatewayConfig({}),
    logger: pino({ level: 'silent' }),
    clock,
    clients: { close: () => undefined, ...clients } as unknown as Clients,
    keyValue: new InMemoryKeyValue(clock),
    downstreams: { check: async () => ({}), close: () => undefined } as unknown as DownstreamHealth,
    isDraining: () => false,
    // What light-my-request's default Host names.
    publicOrigin: () => 'http://localhost',
  });
}
