import { env, loadConfig } from '@rde/platform';
import { z } from 'zod';
import { DEFAULT_UNIVERSE } from './domain/universe';

export type SandboxConfig = ReturnType<typeof loadSandboxConfig>;

/** The sandbox's variables (its module declares them: decision 0058); port and host default by mode. */
export const SANDBOX_VARIABLES = {
  RDE_SANDBOX_PORT: env.optionalPort(),
  RDE_SANDBOX_HOST: z.string().min(1).optional(),
  /** Same seed, same universe, in any process on any machine. */
  RDE_SANDBOX_SEED: z.string().min(1).default('rde-sandbox'),
  RDE_SANDBOX_PEOPLE: z.coerce.number().int().min(10_000).max(16_000_000).default(DEFAULT_UNIVERSE.people),
  RDE_SANDBOX_COMPANIES: z.coerce.number().int().min(1_000).max(51_000).default(DEFAULT_UNIVERSE.companies),
  /** Multiplies every vendor's default latency and job duration; 0 makes vendors answer at once. */
  RDE_SANDBOX_LATENCY_SCALE: z.coerce.number().min(0).max(100).default(1),
  /** false starts every vendor without a rate limit (benchmarks); the admin API can set one later. */
  RDE_SANDBOX_RATE_LIMITS: env.flag(true),
};

/** The sandbox's environment variables. All-in-one mode binds an ephemeral loopback port by default. */
export function loadSandboxConfig(environment: NodeJS.ProcessEnv, allInOne: boolean) {
  const config = loadConfig(SANDBOX_VARIABLES, environment);
  return {
    ...config,
    RDE_SANDBOX_PORT: config.RDE_SANDBOX_PORT ?? (allInOne ? 0 : 8090),
    RDE_SANDBOX_HOST: config.RDE_SANDBOX_HOST ?? (allInOne ? '127.0.0.1' : '0.0.0.0'),
  };
}
