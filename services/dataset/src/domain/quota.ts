import { httpError } from '@rde/platform';

/** What a workspace holds in datasets, or what one dataset adds to it. */
export interface Usage {
  datasets: number;
  rows: number;
  bytes: number;
}

export type QuotaLimits = Usage;

const NAMES: Record<keyof Usage, string> = { datasets: 'datasets', rows: 'rows', bytes: 'bytes of rows' };

/**
 * The refusal of a create that would take the workspace past a quota: 409, because the workspace's
 * current holdings are the conflict; deleting datasets resolves it. Names the first quota crossed.
 */
export function quotaExceeded(limits: QuotaLimits, used: Usage, requested: Usage) {
  const quota = (Object.keys(NAMES) as (keyof Usage)[]).find((name) => used[name] + requested[name] > limits[name]);
  const name = quota ?? 'datasets';
  return httpError(409, {
    detail: {
      reason: 'dataset_quota_exceeded',
      quota: name,
      limit: limits[name],
      used: used[name],
      requested: requested[name],
      message: `This dataset would take the workspace past its quota of ${limits[name]} ${NAMES[name]}; delete datasets to make room`,
    },
  });
}
