import { env, loadConfig } from '@rde/platform';

export function mcpConfig(variables: NodeJS.ProcessEnv) {
  return loadConfig({ RDE_RPC_DEADLINE_MS: env.milliseconds(10_000) }, variables);
}
