import { createHash } from 'node:crypto';

/** One billed step of a run: `<run_id>:<row>:<tool>.<method>` (decision 0004), written once. */
export function chargeIdOf(runId: string, row: number, step: string): string {
  return `${runId}:${row}:${step}`;
}

/** The one final settlement of a run. */
export function settlementIdOf(runId: string): string {
  return `${runId}:settlement:0`;
}

/** One vendor request of a run: a retried InvokeProvider with this id does not call the vendor twice. */
export function invocationIdOf(runId: string, row: number, step: string, request: number): string {
  return `${runId}:${row}:${step}:${request}`;
}

/** The dataset holding a run's paid rows: derived from the run id, so a retried create converges. */
export function datasetIdOf(runId: string): string {
  return `ds_${createHash('sha256').update(`waterfall:${runId}`).digest('hex').slice(0, 24)}`;
}
