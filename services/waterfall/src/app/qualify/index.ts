import type { Clock, Logger } from '@rde/platform';
import type { DatasetClient } from '../../clients';
import { Qualifier } from './qualify';
import { QualifyRuns } from './qualify-run';

/** Candidate qualification (spec "Qualify"): one call's candidates, or a dataset's rows. */
export function buildQualify(deps: {
  readonly dataset: DatasetClient;
  readonly clock: Clock;
  readonly logger: Logger;
}) {
  return { qualifier: new Qualifier(deps.clock), qualifyRuns: new QualifyRuns(deps.dataset, deps.logger) };
}
