import { CreditHolds, grpcModule, OutboxRelay, PaidRunKit } from '@rde/platform';
import { waterfall, protoFileOf } from '@rde/proto';
import { Qualifier } from './app/qualify';
import { QualifyRuns } from './app/qualify-run';
import { BilledRuns } from './app/billed-run';
import { PeopleSearch } from './app/search';
import { createWaterfallClients } from './clients';
import { WATERFALL_VARIABLES, waterfallConfig } from './config';
import { waterfallHandlers } from './grpc/handlers';
import { RunRepository } from './store/runs';
import { buildEnrichment, openEnrichStores } from './app/enrich/wiring';

export const waterfallModule = grpcModule({
  name: 'waterfall',
  defaultPort: 7104,
  // Catalog calls the vendors, billing holds the credits, dataset keeps paid rows.
  dependencies: ['catalog', 'billing', 'dataset'],
  config: WATERFALL_VARIABLES,
  async build(ctx) {
    const config = waterfallConfig(ctx.env);
    const clock = ctx.backends.clock;
    const store = await ctx.backends.documentStore('rde_waterfall');
    const bus = await ctx.backends.bus('waterfall');
    const runs = await RunRepository.open(store, clock);
    const enrichStores = await openEnrichStores(store, clock);
    const relay = new OutboxRelay({
      collections: [
        runs.collection,
        enrichStores.runs.collection,
        enrichStores.jobs.collection,
        enrichStores.chunks.collection,
      ],
      bus,
      logger: ctx.logger,
      pollIntervalMs: config.RDE_WATERFALL_OUTBOX_POLL_MS,
    });
    const clients = createWaterfallClients(ctx.addresses, config.RDE_RPC_DEADLINE_MS);
    const holds = new CreditHolds(clients.billing, config.RDE_WATERFALL_HOLD_TTL_MS);
    const billedRuns = new BilledRuns({
      runs,
      kit: new PaidRunKit({
        holds,
        clock,
        logger: ctx.logger,
        publish: (runId) => relay.relayDocument(runs.collection, runId),
      }),
    });
    const peopleSearch = new PeopleSearch({
      clients,
      billedRuns,
      logger: ctx.logger,
      stepDeadlineMs: config.RDE_WATERFALL_STEP_DEADLINE_MS,
    });
    const enrich = buildEnrichment({
      ctx,
      config,
      stores: enrichStores,
      clients,
      holds,
      keyValue: await ctx.backends.keyValue('waterfall'),
      relay,
      bus,
    });
    return {
      services: [
        {
          fullName: 'rde.waterfall.v1.WaterfallService',
          definition: waterfall.WaterfallServiceService,
          handlers: waterfallHandlers({
            peopleSearch,
            ...enrich.handlers,
            qualifier: new Qualifier(clock),
            qualifyRuns: new QualifyRuns(clients.dataset, ctx.logger),
          }),
          protoFile: protoFileOf('waterfall'),
        },
      ],
      healthy: async () => (await Promise.all([store.ping(), bus.ping()]), true),
      startBackground: async () => {
        await relay.start();
        enrich.poller.start();
        await enrich.runChunks.start();
      },
      close: async () => {
        await enrich.runChunks.stop();
        await enrich.poller.stop();
        await relay.stop();
        clients.close();
      },
    };
  },
});
