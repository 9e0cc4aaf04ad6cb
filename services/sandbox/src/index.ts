import type { ModuleContext, RunningModule, ServiceModule } from '@rde/platform';
import { loadSandboxConfig, SANDBOX_VARIABLES } from './config';
import { buildSandboxServer } from './http/server';
import type { VendorDescriptor } from './http/vendor-descriptor';
import { VENDORS } from './http/vendors';

export type {
  VendorDescriptor,
  VendorKind,
  EndpointDescriptor,
  CostModel,
  VendorCapabilities,
  SearchFilter,
} from './http/vendor-descriptor';
export type { Knobs, KnobsPatch } from './domain/knobs';

/** Every simulated vendor as plain data (prefix, auth, endpoints, cost, capabilities), for catalog. */
export const vendorDescriptors: readonly VendorDescriptor[] = VENDORS.map((vendor) => vendor.descriptor);

/**
 * Simulated data-provider vendors over a synthetic people universe. Runs in all-in-one mode and
 * alone (`rde start --target=sandbox`); never part of a production deployment.
 */
export const sandboxModule: ServiceModule = {
  name: 'sandbox',
  dependencies: [],
  config: SANDBOX_VARIABLES,
  async start(ctx: ModuleContext): Promise<RunningModule> {
    const config = loadSandboxConfig(ctx.env, ctx.allInOne);
    const logger = ctx.logger.child({ module: 'sandbox' });
    const server = await buildSandboxServer({
      universe: {
        seed: config.RDE_SANDBOX_SEED,
        people: config.RDE_SANDBOX_PEOPLE,
        companies: config.RDE_SANDBOX_COMPANIES,
      },
      knobs: { latencyScale: config.RDE_SANDBOX_LATENCY_SCALE, rateLimits: config.RDE_SANDBOX_RATE_LIMITS },
      logger,
    });
    await server.app.listen({ port: config.RDE_SANDBOX_PORT, host: config.RDE_SANDBOX_HOST });
    const address = server.app.server.address();
    const port = typeof address === 'object' && address ? address.port : config.RDE_SANDBOX_PORT;
    logger.info(
      { port, seed: config.RDE_SANDBOX_SEED, vendors: vendorDescriptors.length },
      'sandbox vendors listening',
    );
    return { address: `http://127.0.0.1:${port}`, stop: () => server.close() };
  },
};
