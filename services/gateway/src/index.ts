import { listenOn, type ModuleContext, type RunningModule, type ServiceModule } from '@rde/platform';
import { buildGateway } from './app';
import { GATEWAY_VARIABLES, gatewayConfig, publicOriginOf } from './config';
import { DOWNSTREAMS, DownstreamHealth } from './downstreams';
import { createClients } from './clients';

export { buildGateway } from './app';

/**
 * The gateway module: the public HTTP interface on `PORT`. On stop it drains first: `/ready`
 * answers 503 for RDE_DRAIN_MS while requests in flight finish, then the server closes.
 */
export const gatewayModule: ServiceModule = {
  name: 'gateway',
  dependencies: DOWNSTREAMS,
  config: GATEWAY_VARIABLES,
  async start(ctx: ModuleContext): Promise<RunningModule> {
    const config = gatewayConfig(ctx.env);
    const logger = ctx.logger.child({ module: 'gateway' });
    const downstreams = new DownstreamHealth(ctx.addresses);
    const clients = createClients(ctx.addresses, config.RDE_RPC_DEADLINE_MS);
    let draining = false;
    // PORT=0 binds any free port: the default public origin names the one bound.
    let boundPort = config.PORT;
    const app = await buildGateway({
      config,
      logger,
      clock: ctx.backends.clock,
      clients,
      keyValue: await ctx.backends.keyValue('gateway'),
      downstreams,
      isDraining: () => draining,
      publicOrigin: () => publicOriginOf(config, boundPort),
    });
    await listenOn('PORT', config.PORT, () => app.listen({ port: config.PORT, host: config.RDE_HTTP_HOST }));
    const { port } = app.server.address() as { port: number };
    boundPort = port;
    logger.info({ port }, 'gateway listening');
    return {
      address: `http://127.0.0.1:${port}`,
      async stop() {
        draining = true;
        await new Promise((resolve) => setTimeout(resolve, config.RDE_DRAIN_MS));
        await app.close();
        downstreams.close();
        clients.close();
      },
    };
  },
};
