import { grpcModule } from '@rde/platform';
import { waterfall, protoFileOf } from '@rde/proto';

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
          handlers: {},
          protoFile: protoFileOf('waterfall'),
        },
      ],
      healthy: async () => (await store.ping(), true),
      close: async () => undefined,
    };
  },
});
