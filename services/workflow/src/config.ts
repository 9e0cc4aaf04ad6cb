import { env, loadConfig } from '@rde/platform';

export function workflowConfig(variables: NodeJS.ProcessEnv) {
  return loadConfig(
    {
      /** Lint asks the catalog for each `uses`' parameters. */
      RDE_RPC_DEADLINE_MS: env.milliseconds(10_000),
    },
    variables,
  );
}
