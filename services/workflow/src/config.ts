import { env, loadConfig } from '@rde/platform';

/** Every variable the workflow service reads (its module declares them: decision 0058). */
export const WORKFLOW_VARIABLES = {
  /** Lint asks the catalog for each `uses`' parameters. */
  RDE_RPC_DEADLINE_MS: env.milliseconds(10_000),
};

export function workflowConfig(variables: NodeJS.ProcessEnv) {
  return loadConfig(WORKFLOW_VARIABLES, variables);
}
