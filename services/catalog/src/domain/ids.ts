import { createHash } from 'node:crypto';

/** A single tool call has one billable step, row 0: `<run_id>:0:<tool>.<method>` (decision 0004). */
export function chargeIdOf(runId: string, tool: string, method: string): string {
  return `${runId}:0:${tool}.${method}`;
}

/** The one final settlement of a run. */
export function settlementIdOf(runId: string): string {
  return `${runId}:settlement:0`;
}

/** The dataset holding a run's paid rows: derived from the run id, so a retried create converges. */
export function datasetIdOf(runId: string): string {
  return `ds_${createHash('sha256').update(`tool-call:${runId}`).digest('hex').slice(0, 24)}`;
}
