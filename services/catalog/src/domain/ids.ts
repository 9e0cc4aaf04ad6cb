import { createHash } from 'node:crypto';

/** The dataset holding a run's paid rows: derived from the run id, so a retried create converges. */
export function datasetIdOf(runId: string): string {
  return `ds_${createHash('sha256').update(`tool-call:${runId}`).digest('hex').slice(0, 24)}`;
}
