import { z } from 'zod';
import { loadConfig } from '@rde/platform';

export function datasetConfig(variables: NodeJS.ProcessEnv) {
  return loadConfig(
    {
      /** Rows per bulk insert: 10,000 rows take 20 round trips, each well under a store message. */
      RDE_DATASET_WRITE_BATCH: z.coerce.number().int().min(1).max(10_000).default(500),
    },
    variables,
  );
}
