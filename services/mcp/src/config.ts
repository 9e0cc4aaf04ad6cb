import { env, loadConfig } from '@rde/platform';

export function mcpConfig(variables: NodeJS.ProcessEnv) {
  return loadConfig(
    {
      RDE_RPC_DEADLINE_MS: env.milliseconds(10_000),
      // Per client address and minute (decision 0029).
      RDE_MCP_OAUTH_REGISTER_PER_MINUTE: env.count(20),
      RDE_MCP_OAUTH_TOKEN_PER_MINUTE: env.count(60),
    },
    variables,
  );
}
