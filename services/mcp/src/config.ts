import { env, loadConfig } from '@rde/platform';

/** The mcp service's variables (its module declares them: decision 0058). */
export const MCP_VARIABLES = {
  RDE_RPC_DEADLINE_MS: env.milliseconds(10_000),
  // Per client address and minute (decision 0029).
  RDE_MCP_OAUTH_REGISTER_PER_MINUTE: env.count(20),
  RDE_MCP_OAUTH_TOKEN_PER_MINUTE: env.count(60),
  // How long an OAuth grant's membership check is trusted at use; refresh always asks (decision 0029).
  RDE_MCP_OAUTH_MEMBERSHIP_CACHE_MS: env.milliseconds(2_000),
  // How long an access token still works after a refresh replaced it: an agent's calls in flight (decision 0056).
  RDE_MCP_OAUTH_REFRESH_GRACE_MS: env.milliseconds(30_000),
  // Client ID Metadata Documents (decision 0078): the whole fetch's time and the largest document.
  RDE_MCP_CIMD_TIMEOUT_MS: env.milliseconds(5_000),
  RDE_MCP_CIMD_MAX_BYTES: env.count(5_120),
  // A test setting: also fetch documents from http://127.0.0.1 (never on in production).
  RDE_MCP_CIMD_ALLOW_LOOPBACK_HTTP: env.flag(false),
};

export function mcpConfig(variables: NodeJS.ProcessEnv) {
  return loadConfig(MCP_VARIABLES, variables);
}
