import { z } from 'zod';
import { env, loadConfig, ownDashboardUrl } from '@rde/platform';

/** The billing service's variables (its module declares them: decision 0058). */
export const BILLING_VARIABLES = {
  /** How often a replica tries to take the reaper lease and release expired holds. */
  RDE_BILLING_REAPER_INTERVAL_MS: env.milliseconds(30_000),
  /** A hold's lifetime when Reserve names none. */
  RDE_BILLING_HOLD_TTL_MS: env.milliseconds(15 * 60_000),
  /**
   * Fault injection, for the fault suite only: the settlement consumer waits this long after
   * applying a settlement and before its offset is committed, so a test can kill it in between.
   */
  RDE_FAULT_PAUSE_AFTER_APPLY_MS: env.milliseconds(0),
  /** The payment provider's secret key; unset = payments disabled (503 `stripe_disabled`). */
  RDE_STRIPE_SECRET_KEY: z.string().default(''),
  /** The provider's API base URL; unset = the provider's own (tests point it at stripe-mock). */
  RDE_STRIPE_API_BASE: z.string().default(''),
  /** The webhook endpoint's signing secret; webhook deliveries are refused without it. */
  RDE_STRIPE_WEBHOOK_SECRET: z.string().default(''),
  /** Where checkout and the portal send the user back to; unset, the dashboard's billing page. */
  RDE_BILLING_RETURN_URL: z.string().url().optional(),
  /** The dashboard the return defaults to, by the auth service's rule (decision 0068). */
  RDE_DASHBOARD_URL: env.url().optional(),
  RDE_PUBLIC_URL: env.url().optional(),
  PORT: env.port(8080),
  /** How often a replica tries to take the lease and apply due downgrades and plan grants. */
  RDE_BILLING_PERIOD_JOBS_INTERVAL_MS: env.milliseconds(60_000),
};

export function billingConfig(variables: NodeJS.ProcessEnv) {
  return loadConfig(BILLING_VARIABLES, variables);
}

export type BillingConfig = ReturnType<typeof billingConfig>;

/** The dashboard's billing page, unless RDE_BILLING_RETURN_URL names another place. */
export function billingReturnUrl(config: BillingConfig): string {
  const dashboard = config.RDE_DASHBOARD_URL ?? ownDashboardUrl(config.RDE_PUBLIC_URL, config.PORT);
  return config.RDE_BILLING_RETURN_URL ?? new URL('billing', dashboard).href;
}
