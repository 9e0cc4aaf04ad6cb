import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import {
  CreditHolds,
  grpcModule,
  OutboxRelay,
  PaidRunKit,
  RunLeases,
  WaitingSettlements,
  type Collection,
  type ModuleContext,
} from '@rde/platform';
import { waterfall, protoFileOf } from '@rde/proto';
import { buildEnrichment } from './app/enrich';
import { buildProviderJobs } from './app/jobs';
import { buildQualify } from './app/qualify';
import { buildRuns } from './app/runs';
import { buildSearch } from './app/search';
import { createWaterfallClients } from './clients';
import { CatalogProviders } from './clients/catalog-providers';
import { PacedProviders } from './clients/providers';
import { VendorPauses } from './clients/vendor-pauses';
import { WATERFALL_VARIABLES, waterfallConfig } from './config';
import { waterfallHandlers } from './grpc/handlers';
import { VendorPacing } from './vendors/pacing';
import { EnrichJobPoller } from './jobs/enrich-job-poller';
import { RunChunkWork } from './jobs/run-chunks';
import { openWaterfallStores } from './store';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export const waterfallModule = grpcModule({
  name: 'waterfall',
  defaultPort: 7104,
  // Catalog calls the vendors, billing holds the credits, dataset keeps paid rows.
  dependencies: ['catalog', 'billing', 'dataset'],
  config: WATERFALL_VARIABLES,
  // The one place the waterfall's features, stores and background work are wired together.
  async build(ctx) {
    const config = waterfallConfig(ctx.env);
    const { clock } = ctx.backends;
    const { logger } = ctx;
    const store = await ctx.own.documentStore();
    const bus = await ctx.own.bus();
    const keyValue = await ctx.own.keyValue();
    const stores = await openWaterfallStores(store, clock);
    const clients = createWaterfallClients(ctx.addresses, config.RDE_RPC_DEADLINE_MS);
    const holds = new CreditHolds(clients.billing, config.RDE_WATERFALL_HOLD_TTL_MS);
    // A dataset run's chunks and jobs before the run itself: its final settlement releases the hold.
    const outboxes = [
      stores.runs.collection,
      stores.jobs.collection,
      stores.chunks.collection,
      stores.enrichRuns.collection,
    ];
    const relay = new OutboxRelay({
      collections: outboxes,
      bus,
      logger,
      pollIntervalMs: config.RDE_WATERFALL_OUTBOX_POLL_MS,
    });
    const waiting = new WaitingSettlements({ collections: outboxes, holds, clock, logger });
    // Publishes a document's outbox now; the relay's poll is the safety net.
    const publishIn = (collection: Collection) => (id: string) =>
      void relay
        .relayDocument(collection, id)
        .catch((error: unknown) => logger.warn({ err: error, id }, 'settlement left for the outbox relay'));
    const publishRun = publishIn(stores.enrichRuns.collection);
    // A run's end after its parts (decision 0086): chunks' and jobs' settlements of the run's hold first.
    const publishRunAfterParts = async (runId: string, chunkIds: string[]) => {
      const jobIds = (await stores.jobs.ofRun(runId)).map((job) => job._id);
      await Promise.all([
        ...chunkIds.map((id) => relay.relayDocument(stores.chunks.collection, id)),
        ...jobIds.map((id) => relay.relayDocument(stores.jobs.collection, id)),
      ]);
      await relay.relayDocument(stores.enrichRuns.collection, runId);
    };
    const kitFor = (collection: Collection) =>
      new PaidRunKit({ holds, clock, logger, publish: (runId) => relay.relayDocument(collection, runId) });
    const owner = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
    const providers = new PacedProviders(
      new CatalogProviders(clients.catalog, logger, config.RDE_WATERFALL_STEP_DEADLINE_MS),
      {
        concurrency: config.RDE_ENRICH_VENDOR_CONCURRENCY,
        rateLimitBudgetMs: 60_000,
        sleep,
        shared: new VendorPauses(keyValue, () => clock.now()),
        ...(config.RDE_VENDOR_PACING && { pacing: new VendorPacing(keyValue, () => clock.now(), sleep) }),
      },
    );
    const { providerJobs, enrichJobs } = buildProviderJobs({
      providers,
      jobs: stores.jobs,
      runs: stores.enrichRuns,
      dataset: clients.dataset,
      clock,
      logger,
      publishRunAfterJobs: (runId) =>
        void publishRunAfterParts(runId, []).catch((error: unknown) =>
          logger.warn({ err: error, runId }, 'run end left for the outbox relay, after its jobs'),
        ),
      options: {
        pollBudgetMs: config.RDE_ENRICH_POLL_BUDGET_MS,
        pollIntervalMs: config.RDE_ENRICH_POLL_INTERVAL_MS,
        leaseMs: config.RDE_ENRICH_JOB_LEASE_MS,
        jobLifetimeMs: config.RDE_ENRICH_JOB_LIFETIME_MS,
        owner,
        callbackUrl: (provider, nonce) => {
          const base = gatewayUrl(ctx);
          return base && `${base.replace(/\/$/, '')}/api/v2/webhooks/provider/${encodeURIComponent(provider)}/${nonce}`;
        },
        sleep,
        publish: publishIn(stores.jobs.collection),
      },
    });
    const enrich = buildEnrichment({
      runs: stores.enrichRuns,
      jobs: stores.jobs,
      providers,
      providerJobs,
      clients,
      kit: kitFor(stores.enrichRuns.collection),
      leases: new RunLeases(stores.enrichRuns.collection, clock, config.RDE_ENRICH_JOB_LEASE_MS),
      replayKeys: keyValue,
      clock,
      logger,
      sleep,
      owner,
      replayWindowMs: config.RDE_ENRICH_REPLAY_WINDOW_MS,
      detachMs: config.RDE_ENRICH_DETACH_MS,
      releaseRunIfDone: (run) => enrichJobs.releaseRunIfDone(run),
    });
    const runs = buildRuns({
      stores,
      walker: enrich.walker,
      providers,
      clients,
      holds,
      replayKeys: keyValue,
      clock,
      logger,
      sleep,
      owner,
      chunkLeaseMs: config.RDE_ENRICH_RUN_CHUNK_LEASE_MS,
      publishChunk: publishIn(stores.chunks.collection),
      publishRunAfterParts,
      publishRun,
      releaseRunIfDone: (run) => enrichJobs.releaseRunIfDone({ ...run, run_id: run._id }),
      options: {
        chunkRows: config.RDE_ENRICH_RUN_CHUNK_ROWS,
        detachMs: config.RDE_ENRICH_RUN_DETACH_MS,
        blockMs: config.RDE_ENRICH_RUN_BLOCK_MS,
        workspaceRunLimit: config.RDE_ENRICH_RUN_WORKSPACE_LIMIT,
        replayWindowMs: config.RDE_ENRICH_REPLAY_WINDOW_MS,
      },
    });
    const peopleSearch = buildSearch({
      runs: stores.runs,
      kit: kitFor(stores.runs.collection),
      clients,
      logger,
      stepDeadlineMs: config.RDE_WATERFALL_STEP_DEADLINE_MS,
    });
    const runChunks = new RunChunkWork(
      bus,
      runs.chunkWorker,
      runs.ends,
      stores.chunks,
      stores.datasetRuns,
      logger,
      { slots: config.RDE_ENRICH_RUN_SLOTS, sweepMs: config.RDE_ENRICH_RUN_SWEEP_MS },
      runs.runHolds,
    );
    const poller = new EnrichJobPoller(stores.jobs, providerJobs, logger, config.RDE_ENRICH_POLL_INTERVAL_MS, () =>
      enrich.takeOver.recoverLapsed(),
    );
    return {
      services: [
        {
          fullName: 'rde.waterfall.v1.WaterfallService',
          definition: waterfall.WaterfallServiceService,
          handlers: waterfallHandlers({
            peopleSearch,
            enrichment: enrich.enrichment,
            enrichJobs,
            enrichRuns: runs.enrichRuns,
            ...buildQualify({ dataset: clients.dataset, clock, logger }),
          }),
          protoFile: protoFileOf('waterfall'),
        },
      ],
      healthy: async () => (await Promise.all([store.ping(), bus.ping()]), true),
      startBackground: async () => {
        await relay.start();
        waiting.start();
        poller.start();
        await runChunks.start();
      },
      close: async () => {
        await runChunks.stop();
        await poller.stop();
        waiting.stop();
        await relay.stop();
        clients.close();
      },
    };
  },
});

/**
 * Where vendors call back: the gateway's address (all-in-one mode, or `RDE_GATEWAY_ADDR`). Without
 * one, jobs are finished by polling alone.
 */
function gatewayUrl(ctx: ModuleContext): string | undefined {
  try {
    return ctx.addresses.get('gateway');
  } catch {
    return undefined;
  }
}
