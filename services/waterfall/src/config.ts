import { env, loadConfig } from '@rde/platform';

/** The waterfall service's variables. */
export function waterfallConfig(variables: NodeJS.ProcessEnv) {
  return loadConfig(
    {
      RDE_RPC_DEADLINE_MS: env.milliseconds(10_000),
      /** Deadline of one provider invocation through the catalog (the vendor timeout plus margin). */
      RDE_WATERFALL_STEP_DEADLINE_MS: env.milliseconds(30_000),
      /** Lifetime of a waterfall run's credit hold before billing's reaper may release it. */
      RDE_WATERFALL_HOLD_TTL_MS: env.milliseconds(15 * 60_000),
      /** The outbox relay's safety-net poll (settlements are published right after their write). */
      RDE_WATERFALL_OUTBOX_POLL_MS: env.milliseconds(2_000),
    },
    variables,
  );
}

export type WaterfallConfig = ReturnType<typeof waterfallConfig>;
