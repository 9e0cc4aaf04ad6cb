import { z } from 'zod';
import { env, loadConfig } from '@rde/platform';

/** The waterfall service's variables (its module declares them: decision 0058). */
export const WATERFALL_VARIABLES = {
  RDE_RPC_DEADLINE_MS: env.milliseconds(10_000),
  /** Deadline of one provider invocation through the catalog (the vendor timeout plus margin). */
  RDE_WATERFALL_STEP_DEADLINE_MS: env.milliseconds(30_000),
  /** Lifetime of a waterfall run's credit hold before billing's reaper may release it. */
  RDE_WATERFALL_HOLD_TTL_MS: env.milliseconds(15 * 60_000),
  /** The outbox relay's safety-net poll (settlements are published right after their write). */
  RDE_WATERFALL_OUTBOX_POLL_MS: env.milliseconds(2_000),
  /** A multi-row enrichment answers `running` (rule 6) once its rows take longer than this. */
  RDE_ENRICH_DETACH_MS: env.milliseconds(3_000),
  /** Rule 7's replay window (spec "Limits": 15 minutes); tests shorten it to see a batch bill anew after it. */
  RDE_ENRICH_REPLAY_WINDOW_MS: env.milliseconds(15 * 60_000),
  /** How long a request polls a provider job before answering `still_enriching` (rule 8). */
  RDE_ENRICH_POLL_BUDGET_MS: env.milliseconds(12_000),
  /** Between two polls of one provider job, and between two passes of the background poller. */
  RDE_ENRICH_POLL_INTERVAL_MS: env.milliseconds(1_000),
  /** A poller's lease on a job: a killed poller's job is taken again after this. */
  RDE_ENRICH_JOB_LEASE_MS: env.milliseconds(30_000),
  /** An open provider job is given up (`expired`, nothing charged) after this. */
  RDE_ENRICH_JOB_LIFETIME_MS: env.milliseconds(10 * 60_000),
  /** Calls in flight per vendor from one replica; 429s are waited out on top of this. */
  RDE_ENRICH_VENDOR_CONCURRENCY: z.coerce.number().int().min(1).default(16),
  /** Pace every replica's calls to a vendor together at its published rate (decision 0079); false: 429s only. */
  RDE_VENDOR_PACING: env.flag(true),
  /** Rows per chunk of a dataset enrichment run (the unit a replica takes, bills and counts). */
  RDE_ENRICH_RUN_CHUNK_ROWS: z.coerce.number().int().min(1).max(1_000).default(100),
  /** Chunks one replica walks at once. */
  RDE_ENRICH_RUN_SLOTS: z.coerce.number().int().min(1).default(4),
  /** A `detach` run answers within this (spec: about 20 s). */
  RDE_ENRICH_RUN_DETACH_MS: env.milliseconds(15_000),
  /** A blocking run answers its handle after this, under the gateway's ~100 s close. */
  RDE_ENRICH_RUN_BLOCK_MS: env.milliseconds(85_000),
  /** A chunk's lease: a killed worker's chunk is taken again after this. */
  RDE_ENRICH_RUN_CHUNK_LEASE_MS: env.milliseconds(30_000),
  /** How often each replica looks for lapsed chunks, uncounted chunks and unfinished runs. */
  RDE_ENRICH_RUN_SWEEP_MS: env.milliseconds(1_000),
  /** Dataset runs one workspace may have running at once (decision 0033). */
  RDE_ENRICH_RUN_WORKSPACE_LIMIT: z.coerce.number().int().min(1).default(3),
};

export function waterfallConfig(variables: NodeJS.ProcessEnv) {
  return loadConfig(WATERFALL_VARIABLES, variables);
}

export type WaterfallConfig = ReturnType<typeof waterfallConfig>;
