import { z } from 'zod';
import { env, loadConfig } from '@rde/platform';

/** The dataset service's variables (its module declares them: decision 0058). */
export const DATASET_VARIABLES = {
  /** Rows per bulk insert: 10,000 rows take 20 round trips, each well under a store message. */
  RDE_DATASET_WRITE_BATCH: z.coerce.number().int().min(1).max(10_000).default(500),
  /** Per-workspace quotas: datasets held, rows across them, and bytes of row JSON across them. */
  RDE_DATASET_QUOTA_DATASETS: env.count(1_000),
  RDE_DATASET_QUOTA_ROWS: env.count(1_000_000),
  RDE_DATASET_QUOTA_BYTES: env.count(1024 * 1024 * 1024),
};

export function datasetConfig(variables: NodeJS.ProcessEnv) {
  return loadConfig(DATASET_VARIABLES, variables);
}
