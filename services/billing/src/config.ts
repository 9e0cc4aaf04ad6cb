import { env, loadConfig } from '@rde/platform';

export function billingConfig(variables: NodeJS.ProcessEnv) {
  return loadConfig(
    {
      /** How often a replica tries to take the reaper lease and release expired holds. */
      RDE_BILLING_REAPER_INTERVAL_MS: env.milliseconds(30_000),
      /** A hold's lifetime when Reserve names none. */
      RDE_BILLING_HOLD_TTL_MS: env.milliseconds(15 * 60_000),
      /**
       * Fault injection, for the fault suite only: the settlement consumer waits this long after
       * applying a settlement and before its offset is committed, so a test can kill it in between.
       */
      RDE_FAULT_PAUSE_AFTER_APPLY_MS: env.milliseconds(0),
    },
    variables,
  );
}

export type BillingConfig = ReturnType<typeof billingConfig>;
