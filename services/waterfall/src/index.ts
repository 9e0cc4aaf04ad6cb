import { grpcModule } from '@rde/platform';
import { waterfall, protoFileOf } from '@rde/proto';
import { Qualifier } from './app/qualify';
import { qualifyHandlers } from './grpc/qualify-handlers';

export const waterfallModule = grpcModule({
  name: 'waterfall',
  defaultPort: 7104,
  dependencies: [],
  async build(ctx) {
    const store = await ctx.backends.documentStore('rde_waterfall');
    return {
      services: [
        {
          fullName: 'rde.waterfall.v1.WaterfallService',
          definition: waterfall.WaterfallServiceService,
          handlers: { ...qualifyHandlers(new Qualifier(ctx.backends.clock)) },
          protoFile: protoFileOf('waterfall'),
        },
      ],
      healthy: async () => (await store.ping(), true),
      close: async () => undefined,
    };
  },
});
