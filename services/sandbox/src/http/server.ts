import { setMaxListeners } from 'node:events';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { KnobEnvironment } from '../domain/knobs';
import { Universe, type UniverseOptions } from '../domain/universe';
import { registerAdmin } from './admin';
import { Counters } from './counters';
import { JobBoard } from './jobs';
import { KnobBoard } from './knob-board';
import { registerVendor, type SandboxState } from './vendor-kit';
import { VENDORS } from './vendors';

export interface SandboxServerOptions {
  readonly universe: UniverseOptions;
  readonly knobs: KnobEnvironment;
  readonly logger: FastifyBaseLogger;
}

export interface SandboxServer {
  readonly app: FastifyInstance;
  readonly state: SandboxState;
  close(): Promise<void>;
}

/** The sandbox's HTTP server: every vendor under its own prefix, and the admin API under /_admin. */
export async function buildSandboxServer(options: SandboxServerOptions): Promise<SandboxServer> {
  const stopping = new AbortController();
  // Every request waiting out its latency listens for the stop: thousands at once are expected.
  setMaxListeners(0, stopping.signal);
  const state: SandboxState = {
    universe: new Universe(options.universe),
    knobs: new KnobBoard(new Map(VENDORS.map((v) => [v.descriptor.id, v.knobDefaults])), options.knobs),
    counters: new Counters(new Map(VENDORS.map((v) => [v.descriptor.id, v.descriptor.endpoints.map((e) => e.name)]))),
    jobs: new JobBoard(options.logger),
    stopping: stopping.signal,
  };
  const app = Fastify({
    loggerInstance: options.logger,
    // No per-request log lines and no per-request child logger: vendors are hit thousands of times a second.
    logController: new LogController({ disableRequestLogging: true }),
    childLoggerFactory: (logger) => logger,
    forceCloseConnections: true,
    // Unknown keys must fail validation (422 on the admin API, 400 at vendors), not vanish.
    ajv: { customOptions: { removeAdditional: false } },
  });
  app.get('/healthz', async () => ({ status: 'ok' }));
  for (const vendor of VENDORS) registerVendor(app, vendor, state);
  registerAdmin(app, state, VENDORS);
  await app.ready();
  return {
    app,
    state,
    async close() {
      stopping.abort();
      state.jobs.clear();
      await app.close();
    },
  };
}
