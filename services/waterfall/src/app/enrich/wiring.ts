import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import {
  PaidRunKit,
  RunLeases,
  type Bus,
  type Clock,
  type CreditHolds,
  type DocumentStore,
  type KeyValue,
  type ModuleContext,
  type OutboxRelay,
} from '@rde/platform';
import type { WaterfallClients } from '../../clients';
import type { WaterfallConfig } from '../../config';
import { EnrichJobPoller } from '../../jobs/enrich-job-poller';
import { RunChunkWork } from '../../jobs/run-chunks';
import { DatasetRunRepository } from '../../store/dataset-runs';
import { RunChunkRepository } from '../../store/run-chunks';
import { CallRuns } from '../runs/call-runs';
import { ChunkWorker } from '../runs/chunk-worker';
import { EnrichRuns } from '../runs/enrich-runs';
import { RunHolds } from '../runs/run-holds';
import { EnrichJobRepository } from '../../store/enrich-jobs';
import { EnrichRunRepository } from '../../store/enrich-runs';
import { CatalogProviders } from './catalog-providers';
import { EnrichJobs } from './enrich-jobs';
import { EnrichAnswers } from './enrich-answers';
import { EnrichWalks } from './enrich-walks';
import { Enrichment } from './enrichment';
import { EnrichTakeOver } from './take-over';
import { ProviderJobs } from './provider-jobs';
import { PacedProviders } from './providers';
import { VendorPacing } from '../../vendors/pacing';
import { VendorPauses } from './vendor-pauses';
import { RowWalker } from './walk-rows';

export interface EnrichStores {
  readonly runs: EnrichRunRepository;
  readonly jobs: EnrichJobRepository;
  readonly chunks: RunChunkRepository;
}

export async function openEnrichStores(store: DocumentStore, clock: Clock): Promise<EnrichStores> {
  return {
    runs: await EnrichRunRepository.open(store, clock),
    jobs: await EnrichJobRepository.open(store, clock),
    chunks: await RunChunkRepository.open(store, clock),
  };
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The enrichment waterfalls' parts, wired once for the waterfall module. */
export function buildEnrichment(deps: {
  ctx: ModuleContext;
  config: WaterfallConfig;
  stores: EnrichStores;
  clients: WaterfallClients;
  holds: CreditHolds;
  keyValue: KeyValue;
  relay: OutboxRelay;
  bus: Bus;
}) {
  const { ctx, config, stores, clients, relay } = deps;
  const clock = ctx.backends.clock;
  const publish = (
    collection:
      EnrichRunRepository['collection'] | EnrichJobRepository['collection'] | RunChunkRepository['collection'],
    id: string,
  ) =>
    void relay
      .relayDocument(collection, id)
      .catch((error: unknown) => ctx.logger.warn({ err: error, id }, 'settlement left for the outbox relay'));
  const providers = new PacedProviders(
    new CatalogProviders(clients.catalog, ctx.logger, config.RDE_WATERFALL_STEP_DEADLINE_MS),
    {
      concurrency: config.RDE_ENRICH_VENDOR_CONCURRENCY,
      rateLimitBudgetMs: 60_000,
      sleep,
      shared: new VendorPauses(deps.keyValue, () => clock.now()),
      ...(config.RDE_VENDOR_PACING && { pacing: new VendorPacing(deps.keyValue, () => clock.now(), sleep) }),
    },
  );
  const enrichJobs: EnrichJobs = new EnrichJobs(
    stores.jobs,
    stores.runs,
    () => providerJobs,
    clock,
    ctx.logger,
    (runId) => publish(stores.runs.collection, runId),
  );
  const owner = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  const providerJobs = new ProviderJobs(providers, stores.jobs, clients.dataset, clock, ctx.logger, {
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
    publish: (key) => publish(stores.jobs.collection, key),
    onHandedOffSettled: (job) => enrichJobs.releaseRunIfDone(job),
  });
  const walker = new RowWalker(providers, providerJobs, ctx.logger);
  const kit = new PaidRunKit({
    holds: deps.holds,
    clock,
    logger: ctx.logger,
    publish: (runId) => relay.relayDocument(stores.runs.collection, runId),
  });
  const leases = new RunLeases(stores.runs.collection, clock, config.RDE_ENRICH_JOB_LEASE_MS);
  const walks = new EnrichWalks({
    walker,
    runs: stores.runs,
    jobs: stores.jobs,
    clients,
    kit,
    leases,
    clock,
    logger: ctx.logger,
    sleep,
    owner,
    releaseRunIfDone: (run) => enrichJobs.releaseRunIfDone(run),
  });
  const takeOver = new EnrichTakeOver({
    runs: stores.runs,
    jobs: stores.jobs,
    clients,
    leases,
    walks,
    logger: ctx.logger,
    owner,
  });
  const enrichment = new Enrichment({
    runs: stores.runs,
    providers,
    clients,
    kit,
    walks,
    leases,
    owner,
    answers: new EnrichAnswers({ runs: stores.runs, jobs: stores.jobs, clients }),
    replayKeys: deps.keyValue,
    replayWindowMs: config.RDE_ENRICH_REPLAY_WINDOW_MS,
    detachMs: config.RDE_ENRICH_DETACH_MS,
    sleep,
  });
  const datasetRuns = new DatasetRunRepository(stores.runs, clock);
  const chunkWorker = new ChunkWorker({
    chunks: stores.chunks,
    runs: datasetRuns,
    jobs: stores.jobs,
    walker,
    dataset: clients.dataset,
    catalog: clients.catalog,
    clock,
    logger: ctx.logger,
    owner,
    leaseMs: config.RDE_ENRICH_RUN_CHUNK_LEASE_MS,
    publishChunk: (id) => publish(stores.chunks.collection, id),
    publishRun: (runId) => publish(stores.runs.collection, runId),
    releaseRunIfDone: (run) => enrichJobs.releaseRunIfDone({ ...run, run_id: run._id }),
  });
  const enrichRuns = new EnrichRuns({
    runs: datasetRuns,
    chunks: stores.chunks,
    callRuns: new CallRuns(stores.runs, stores.jobs, clients.dataset),
    providers,
    clients,
    holds: deps.holds,
    replayKeys: deps.keyValue,
    clock,
    logger: ctx.logger,
    sleep,
    publishRun: (runId) => publish(stores.runs.collection, runId),
    options: {
      chunkRows: config.RDE_ENRICH_RUN_CHUNK_ROWS,
      detachMs: config.RDE_ENRICH_RUN_DETACH_MS,
      blockMs: config.RDE_ENRICH_RUN_BLOCK_MS,
      workspaceRunLimit: config.RDE_ENRICH_RUN_WORKSPACE_LIMIT,
      replayWindowMs: config.RDE_ENRICH_REPLAY_WINDOW_MS,
    },
  });
  return {
    handlers: { enrichment, enrichJobs, enrichRuns },
    runChunks: new RunChunkWork(
      deps.bus,
      chunkWorker,
      stores.chunks,
      datasetRuns,
      ctx.logger,
      { slots: config.RDE_ENRICH_RUN_SLOTS, sweepMs: config.RDE_ENRICH_RUN_SWEEP_MS },
      new RunHolds({ runs: datasetRuns, holds: deps.holds, clock, logger: ctx.logger }),
    ),
    poller: new EnrichJobPoller(stores.jobs, providerJobs, ctx.logger, config.RDE_ENRICH_POLL_INTERVAL_MS, () =>
      takeOver.recoverLapsed(),
    ),
  };
}

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
