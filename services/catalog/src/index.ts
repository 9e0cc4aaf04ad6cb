import { CreditHolds, grpcModule, OutboxRelay, PaidRunKit, WaitingSettlements } from '@rde/platform';
import { catalog, catalogSkills, distribution, protoFileOf } from '@rde/proto';
import { ToolCalls } from './app/tool-call';
import { ProviderInvocations } from './app/invoke-provider';
import { openDistribution } from './app/distribution';
import { PublicSkillCatalog } from './app/skills/public-catalog';
import { createCatalogClients } from './clients';
import { catalogConfig, catalogVariables } from './config';
import { Catalog } from './domain/catalog';
import { ParameterResolver } from './domain/parameters';
import { catalogHandlers } from './grpc/handlers';
import { distributionHandlers } from './grpc/distribution-handlers';
import { skillHandlers } from './grpc/skill-handlers';
import { CatalogViews } from './grpc/views';
import { MeteredProviders } from './providers/metered';
import { RestJsonProviders } from './providers/rest-json';
import { PROVIDERS } from './providers';
import { WATERFALLS } from './providers/waterfalls';
import { PublicSkillPackagesRepository } from './store/public-skill-packages';
import { RunRepository } from './store/runs';
import { WorkspaceSkillsRepository } from './store/workspace-skills';

export const catalogModule = grpcModule({
  name: 'catalog',
  defaultPort: 7103,
  // Billing holds the credits and dataset keeps paid rows. The vendors are configuration, not a
  // module: the sandbox is only their development default, looked up when a vendor is first called.
  dependencies: ['billing', 'dataset'],
  config: catalogVariables(PROVIDERS),
  async build(ctx) {
    const config = catalogConfig(ctx.env, PROVIDERS);
    const clock = ctx.backends.clock;
    const store = await ctx.own.documentStore();
    const bus = await ctx.own.bus();
    const runs = await RunRepository.open(store, clock);
    const workspaceSkills = await WorkspaceSkillsRepository.open(store);
    const publicSkills = await PublicSkillCatalog.build(
      await PublicSkillPackagesRepository.load(config.RDE_CATALOG_SKILLS_DIR),
    );
    const relay = new OutboxRelay({
      collections: [runs.collection],
      bus,
      logger: ctx.logger,
      pollIntervalMs: config.RDE_CATALOG_OUTBOX_POLL_MS,
    });
    const clients = createCatalogClients(ctx.addresses, config.RDE_RPC_DEADLINE_MS);
    const providers = new RestJsonProviders({
      baseUrlOf: (provider) => config.baseUrlOf(provider, () => ctx.addresses.get('sandbox')),
      apiKeyOf: config.apiKeyOf,
      timeoutMs: config.RDE_PROVIDER_TIMEOUT_MS,
      connections: config.RDE_PROVIDER_CONNECTIONS,
    });
    const tools = new Catalog(PROVIDERS, WATERFALLS);
    const keyValue = await ctx.own.keyValue();
    const resolver = new ParameterResolver();
    resolver.compileAll(PROVIDERS.flatMap((provider) => provider.methods));
    const holds = new CreditHolds(clients.billing, config.RDE_CATALOG_HOLD_TTL_MS);
    const waiting = new WaitingSettlements({ collections: [runs.collection], holds, clock, logger: ctx.logger });
    const toolCalls = new ToolCalls({
      catalog: tools,
      resolver,
      runs,
      clients,
      providers: new MeteredProviders(providers),
      kit: new PaidRunKit({
        holds,
        clock,
        logger: ctx.logger,
        publish: (runId) => relay.relayDocument(runs.collection, runId),
      }),
      logger: ctx.logger,
    });
    const invocations = new ProviderInvocations({
      catalog: tools,
      resolver,
      providers,
      keyValue,
      replayTtlMs: config.RDE_CATALOG_INVOCATION_REPLAY_MS,
    });
    return {
      services: [
        {
          fullName: 'rde.catalog.v1.CatalogService',
          definition: catalog.CatalogServiceService,
          handlers: catalogHandlers({
            catalog: tools,
            views: new CatalogViews(PROVIDERS, config.RDE_CATALOG_CENTS_PER_CREDIT),
            toolCalls,
            invocations,
          }),
          protoFile: protoFileOf('catalog'),
        },
        {
          fullName: 'rde.catalog.v1.DistributionService',
          definition: distribution.DistributionServiceService,
          handlers: distributionHandlers(await openDistribution(ctx.env)),
          protoFile: 'rde/catalog/v1/distribution.proto',
        },
        {
          fullName: 'rde.catalog.v1.SkillService',
          definition: catalogSkills.SkillServiceService,
          handlers: skillHandlers(publicSkills, { skills: workspaceSkills, clock }),
          protoFile: 'rde/catalog/v1/skills.proto',
        },
      ],
      healthy: async () => (await Promise.all([store.ping(), bus.ping(), keyValue.ping()]), true),
      startBackground: async () => {
        relay.start();
        waiting.start();
      },
      close: async () => {
        waiting.stop();
        await relay.stop();
        await providers.close();
        clients.close();
      },
    };
  },
});
