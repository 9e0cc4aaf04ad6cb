import { z } from 'zod';
import { ConfigError, configProblems, env, loadConfig, type ServiceModule } from '@rde/platform';
import { BACKEND_VARIABLES, partialAdapterSet } from './backends';

/** What `rde start` itself reads, beside its modules' variables. */
const PROCESS_VARIABLES = {
  RDE_LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  RDE_METRICS_PORT: env.optionalPort(),
  RDE_METRICS_HOST: z.string().default('127.0.0.1'),
  /** Where each `rde start` records its modules' addresses for `rde admin` (decision 0049). */
  RDE_RUNTIME_DIR: z.string().optional(),
  ...BACKEND_VARIABLES,
};

/**
 * Checks the process's variables and those of every module it runs before any module starts (or
 * the logger is built: a bad level is a message, not pino's stack trace). One ConfigError names
 * every problem; a variable several modules read is named once (decision 0058).
 */
export function checkedConfig(variables: NodeJS.ProcessEnv, modules: readonly ServiceModule[]) {
  const problems = new Set([
    ...configProblems(PROCESS_VARIABLES, variables),
    ...partialAdapterSet(variables),
    ...modules.flatMap((module) => configProblems(module.config, variables)),
  ]);
  if (problems.size > 0) throw new ConfigError([...problems]);
  return loadConfig(PROCESS_VARIABLES, variables);
}

/** Every variable RDE reads: the process's, each module's declared ones and the address of each module. */
export function variablesRead(registry: readonly ServiceModule[]): string[] {
  return [
    ...Object.keys(PROCESS_VARIABLES),
    ...registry.flatMap((module) => [...Object.keys(module.config), `RDE_${module.name.toUpperCase()}_ADDR`]),
  ];
}
