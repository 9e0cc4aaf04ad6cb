import { z } from 'zod';
import { DASHBOARD_PATH, env, loadConfig } from '@rde/platform';

/** A comma-separated list: addresses, hostnames. */
const list = () =>
  z
    .string()
    .default('')
    .transform((text) =>
      text
        .split(',')
        .map((item) => item.trim())
        .filter(Boolean),
    );

/** The origin clients reach the gateway at: http(s), nothing after the authority (decision 0055). */
const origin = () =>
  env
    .url()
    .refine((text) => {
      const url = new URL(text);
      return /^https?:$/.test(url.protocol) && url.pathname === '/' && !url.search && !url.hash && !url.username;
    }, 'an http(s) origin: no path, query, fragment or credentials')
    .transform((text) => new URL(text).origin);

/** The gateway service's variables (its module declares them: decision 0058). */
export const GATEWAY_VARIABLES = {
  PORT: env.port(8080),
  RDE_HTTP_HOST: z.string().default('0.0.0.0'),
  /** The dashboard's URL when it is not the one this gateway serves at /app/ (decision 0068). */
  RDE_DASHBOARD_URL: env.url().optional(),
  RDE_DRAIN_MS: env.milliseconds(1_000),
  RDE_RPC_DEADLINE_MS: env.milliseconds(10_000),
  RDE_READY_PROBE_MS: env.milliseconds(500),
  RDE_BEARER_CACHE_MS: env.milliseconds(2_000),
  /** The directory domain-proof token served at /.well-known/openai-apps-challenge; unset → 404. */
  RDE_OPENAI_APPS_CHALLENGE: z.string().optional(),
  /** Where clients reach the gateway, for every URL it publishes; unset → http://127.0.0.1:<bound port>. */
  RDE_PUBLIC_URL: origin().optional(),
  /** Proxies (addresses, CIDRs) whose X-Forwarded-* headers are believed; no one's by default. */
  RDE_TRUSTED_PROXIES: list(),
  /** Browser origins (hostnames) the MCP endpoint answers besides the public URL's own. */
  RDE_MCP_ALLOWED_ORIGINS: list(),
  /** How long a paid request's first answer is replayed to the same Idempotency-Key (decision 0070). */
  RDE_IDEMPOTENCY_TTL_MS: env.milliseconds(86_400_000),
  /** How long a keyed request's in-flight marker outlives its gateway: a retry after a death waits this. */
  RDE_IDEMPOTENCY_LEASE_MS: z.coerce.number().int().min(300).default(10_000),
  /** The largest kept answer (gzipped); a larger one keeps only its fingerprint. */
  RDE_IDEMPOTENCY_MAX_BODY_BYTES: env.count(1_048_576),
};

export function gatewayConfig(variables: NodeJS.ProcessEnv) {
  return loadConfig(GATEWAY_VARIABLES, variables);
}

export type GatewayConfig = ReturnType<typeof gatewayConfig>;

/** The configured public origin, or the all-in-one's default: this host at the port the gateway bound. */
export function publicOriginOf(config: GatewayConfig, boundPort: number): string {
  return config.RDE_PUBLIC_URL ?? `http://127.0.0.1:${boundPort}`;
}

/** A dashboard page: under the configured dashboard, or this gateway's own on the origin the browser used. */
export function dashboardPageOf(config: GatewayConfig, page = ''): string {
  return config.RDE_DASHBOARD_URL ? new URL(page, config.RDE_DASHBOARD_URL).href : `${DASHBOARD_PATH}${page}`;
}
