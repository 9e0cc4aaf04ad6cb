import { env, loadConfig } from '@rde/platform';

/** Every variable the workflow service reads (its module declares them: decision 0058). */
export const WORKFLOW_VARIABLES = {
  /** Lint asks the catalog for each `uses`' parameters. */
  RDE_RPC_DEADLINE_MS: env.milliseconds(10_000),
  /** Deadline of one step call (a search walks every provider; an enrichment may poll a job). */
  RDE_WORKFLOW_STEP_DEADLINE_MS: env.milliseconds(120_000),
  /** Runs one replica works at once. */
  RDE_WORKFLOW_RUN_SLOTS: env.count(8),
  /** A run's claim: a killed replica's run is resumed by another after this. */
  RDE_WORKFLOW_RUN_LEASE_MS: env.milliseconds(15_000),
  /** How often each replica looks for runs nobody works. */
  RDE_WORKFLOW_RUN_SWEEP_MS: env.milliseconds(1_000),
  /** A queued run no replica took this long (its message was lost) is taken by a sweep. */
  RDE_WORKFLOW_QUEUED_GRACE_MS: env.milliseconds(5_000),
  /** Calls one inbound webhook URL may make per minute (decision 0075). */
  RDE_WEBHOOK_RATE_PER_MINUTE: env.count(60),
};

/**
 * How often an `enrich.run` step reads its run while it waits (decision 0088): the dashboard's and
 * the run record's own `poll_after_s` pace is 2 s; a step is an unattended reader, so a little more often.
 */
export const ENRICH_RUN_POLL_MS = 1_000;

export function workflowConfig(variables: NodeJS.ProcessEnv) {
  return loadConfig(WORKFLOW_VARIABLES, variables);
}
