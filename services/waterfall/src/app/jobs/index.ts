import type { Clock, Logger } from '@rde/platform';
import type { DatasetClient } from '../../clients';
import type { ProviderPort } from '../../clients/providers';
import type { EnrichJobRepository } from '../../store/enrich-jobs';
import type { EnrichRunRepository } from '../../store/enrich-runs';
import { EnrichJobs } from './enrich-jobs';
import { ProviderJobs, type ProviderJobsOptions } from './provider-jobs';

export type { ProviderJobs } from './provider-jobs';

export interface ProviderJobsFeatureDependencies {
  readonly providers: ProviderPort;
  readonly jobs: EnrichJobRepository;
  readonly runs: EnrichRunRepository;
  readonly dataset: DatasetClient;
  readonly clock: Clock;
  readonly logger: Logger;
  /** Publishes a run's end after its jobs' settlements (the relay's poll is the safety net). */
  readonly publishRunAfterJobs: (runId: string) => void;
  readonly options: Omit<ProviderJobsOptions, 'onHandedOffSettled'>;
}

/** Provider jobs (spec "Enrichment" rule 8): the jobs themselves, and the client's view of them with callbacks. */
export function buildProviderJobs(deps: ProviderJobsFeatureDependencies) {
  const { jobs, runs, clock, logger } = deps;
  const enrichJobs: EnrichJobs = new EnrichJobs(
    jobs,
    runs,
    () => providerJobs,
    clock,
    logger,
    deps.publishRunAfterJobs,
  );
  const providerJobs = new ProviderJobs(deps.providers, jobs, deps.dataset, clock, logger, {
    ...deps.options,
    onHandedOffSettled: (job) => enrichJobs.releaseRunIfDone(job),
  });
  return { providerJobs, enrichJobs };
}
