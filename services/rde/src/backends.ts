import { z } from 'zod';
import {
  ConfigError,
  createBackends,
  loadConfig,
  namespacedBackends,
  systemClock,
  type Backends,
  type Logger,
} from '@rde/platform';

/** Where the production adapters' servers are, and the prefix every deployment's names get. */
export const BACKEND_VARIABLES = {
  RDE_MONGO_URL: z.string().startsWith('mongodb').optional(),
  RDE_KAFKA_BROKERS: z.string().optional(),
  RDE_REDIS_URL: z.string().startsWith('redis').optional(),
  RDE_NAMESPACE: z
    .string()
    .regex(/^[a-z0-9_]*$/, 'lowercase letters, digits and _ only')
    .default(''),
};

/**
 * The production adapters (MongoDB, Kafka, Redis) when their addresses are configured, the
 * embedded ones otherwise. Half a configuration is an error, never a silent fallback.
 */
export async function backendsFromEnv(variables: NodeJS.ProcessEnv, logger: Logger): Promise<Backends> {
  const config = loadConfig(BACKEND_VARIABLES, variables);
  return namespacedBackends(await adaptersFor(config, logger), config.RDE_NAMESPACE);
}

const PRODUCTION_VARIABLES = ['RDE_MONGO_URL', 'RDE_KAFKA_BROKERS', 'RDE_REDIS_URL'] as const;

/** true when no production adapter is configured: the embedded, in-memory ones run. */
export function embeddedAdapters(variables: NodeJS.ProcessEnv): boolean {
  return !PRODUCTION_VARIABLES.some((name) => variables[name]);
}

/** The problem with some but not all of the production adapters configured; none otherwise. */
export function partialAdapterSet(variables: NodeJS.ProcessEnv): string[] {
  const missing = PRODUCTION_VARIABLES.filter((name) => !variables[name]);
  if (missing.length === 0 || missing.length === PRODUCTION_VARIABLES.length) return [];
  return [
    `production adapters need RDE_MONGO_URL, RDE_KAFKA_BROKERS and RDE_REDIS_URL; missing: ${missing.join(', ')}`,
  ];
}

async function adaptersFor(
  config: { RDE_MONGO_URL?: string; RDE_KAFKA_BROKERS?: string; RDE_REDIS_URL?: string },
  logger: Logger,
): Promise<Backends> {
  const { RDE_MONGO_URL: mongoUrl, RDE_KAFKA_BROKERS: brokers, RDE_REDIS_URL: redisUrl } = config;
  if (!mongoUrl && !brokers && !redisUrl) {
    logger.info('embedded adapters: in-memory store, in-process bus, in-memory key-value');
    return createBackends({ kind: 'memory', clock: systemClock });
  }
  if (!mongoUrl || !brokers || !redisUrl) {
    // A ConfigError: one message and exit 2, not a stack trace.
    throw new ConfigError(partialAdapterSet(config));
  }
  logger.info({ brokers }, 'production adapters: MongoDB, Kafka, Redis');
  return createBackends({
    kind: 'production',
    clock: systemClock,
    mongoUrl,
    kafkaBrokers: brokers.split(',').map((b) => b.trim()),
    redisUrl,
  });
}
