import { z } from 'zod';
import { env, loadConfig } from '@rde/platform';

export function gatewayConfig(variables: NodeJS.ProcessEnv) {
  return loadConfig(
    {
      PORT: env.port(8080),
      RDE_HTTP_HOST: z.string().default('0.0.0.0'),
      RDE_DASHBOARD_URL: env.url().default('https://app.rde.dev/'),
      RDE_DRAIN_MS: env.milliseconds(1_000),
      RDE_RPC_DEADLINE_MS: env.milliseconds(10_000),
      RDE_READY_PROBE_MS: env.milliseconds(500),
      RDE_BEARER_CACHE_MS: env.milliseconds(2_000),
      /** The directory domain-proof token served at /.well-known/openai-apps-challenge; unset → 404. */
      RDE_OPENAI_APPS_CHALLENGE: z.string().optional(),
    },
    variables,
  );
}

export type GatewayConfig = ReturnType<typeof gatewayConfig>;
