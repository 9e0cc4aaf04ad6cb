import type { Logger, PaidRunKit } from '@rde/platform';
import type { WaterfallClients } from '../../clients';
import type { RunRepository } from '../../store/runs';
import { BilledRuns } from './billed-run';
import { PeopleSearch } from './people-search';

/** People search (spec "Search"), billed as one paid run of the platform's kit. */
export function buildSearch(deps: {
  readonly runs: RunRepository;
  readonly kit: PaidRunKit;
  readonly clients: WaterfallClients;
  readonly logger: Logger;
  readonly stepDeadlineMs: number;
}): PeopleSearch {
  const billedRuns = new BilledRuns({ runs: deps.runs, kit: deps.kit });
  return new PeopleSearch({ ...deps, billedRuns });
}
