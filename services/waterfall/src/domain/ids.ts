import { createHash } from 'node:crypto';

/** One vendor request of a run: a retried InvokeProvider with this id does not call the vendor twice. */
export function invocationIdOf(runId: string, row: number, step: string, request: number): string {
  return `${runId}:${row}:${step}:${request}`;
}

/** The dataset holding a run's paid rows: derived from the run id, so a retried create converges. */
export function datasetIdOf(runId: string): string {
  return `ds_${createHash('sha256').update(`waterfall:${runId}`).digest('hex').slice(0, 24)}`;
}
