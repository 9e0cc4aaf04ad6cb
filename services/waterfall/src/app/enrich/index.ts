import type { Clock, KeyValue, Logger, PaidRunKit, RunLeases } from '@rde/platform';
import type { WaterfallClients } from '../../clients';
import type { ProviderPort } from '../../clients/providers';
import type { EnrichJobRepository } from '../../store/enrich-jobs';
import type { EnrichRunDocument, EnrichRunRepository } from '../../store/enrich-runs';
import { EnrichAnswers } from './enrich-answers';
import { EnrichWalks, type EnrichWalkDependencies } from './enrich-walks';
import { Enrichment } from './enrichment';
import type { ProviderJobPort } from './job-port';
import { EnrichTakeOver } from './take-over';
import { RowWalker } from './walk-rows';

// What other features use of the enrichment: the row walk, its judge, its prices and the jobs port.
export { judge } from './judge';
export { worstCasePerRow } from './prices';
export type { JobOutcome, JobRowInput, JobRun, ProviderJobPort } from './job-port';
export type { RowWalker } from './walk-rows';

export interface EnrichFeatureDependencies {
  readonly runs: EnrichRunRepository;
  readonly jobs: EnrichJobRepository;
  readonly providers: ProviderPort;
  readonly providerJobs: ProviderJobPort;
  readonly clients: WaterfallClients;
  readonly kit: PaidRunKit;
  readonly leases: RunLeases<EnrichRunDocument>;
  readonly replayKeys: KeyValue;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly sleep: (ms: number) => Promise<void>;
  /** This replica's name on the runs it walks. */
  readonly owner: string;
  readonly replayWindowMs: number;
  readonly detachMs: number;
  /** Releases a run's hold once none of its provider jobs is open. */
  readonly releaseRunIfDone: EnrichWalkDependencies['releaseRunIfDone'];
}

/** The enrichment waterfalls' use cases (spec "Enrichment"), built once by the module. */
export function buildEnrichment(deps: EnrichFeatureDependencies) {
  const { runs, jobs, clients, leases, logger, owner } = deps;
  const walker = new RowWalker(deps.providers, deps.providerJobs, logger);
  const walks = new EnrichWalks({ ...deps, walker });
  const takeOver = new EnrichTakeOver({ runs, jobs, clients, leases, walks, logger, owner });
  const enrichment = new Enrichment({
    ...deps,
    walks,
    answers: new EnrichAnswers({ runs, jobs, clients }),
  });
  return { enrichment, walker, takeOver };
}
