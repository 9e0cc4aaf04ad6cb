#!/usr/bin/env node
// Telemetry first: its instrumentations patch http, gRPC and the drivers as they load.
import { startTelemetry } from '@rde/platform/dist/telemetry';
const telemetry = startTelemetry('rde');

import { parseArgs } from 'node:util';
import { ConfigError, createLogger, startMetricsServer, type Logger, type ServiceModule } from '@rde/platform';
import { admin, ADMIN_USAGE } from './admin';
import { backendsFromEnv, embeddedAdapters } from './backends';
import { banner, freshDevKey } from './banner';
import { checkedConfig, variablesRead } from './config';
import { recordInstance } from './instances';
import { migrate, MIGRATE_USAGE, parseMigrateArgs } from './migrate';
import { startModules } from './start';
import { isAllInOne, resolveTargets, TargetError } from './targets';
import { unknownVariables } from './unknown-variables';

// The modules load only for `start`, so `rde admin` answers without loading every service.
const loadModules = async () => (await import('./modules.js')).MODULES;

async function usage(): Promise<string> {
  return `usage:
  rde start [--target=all|<module>[,<module>…]]   run RDE (default: every module in one process)
${MIGRATE_USAGE}
${ADMIN_USAGE}

modules: ${(await loadModules()).map((m) => m.name).join(', ')}`;
}

async function start(args: string[]): Promise<void> {
  const { values } = parseArgs({ args, options: { target: { type: 'string', default: 'all' } } });
  const target = values.target ?? 'all';
  const began = performance.now();
  const registry = await loadModules();
  const modules = resolveTargets(target, registry);
  const settings = checkedConfig(process.env, modules);
  const logger = createLogger('rde', settings.RDE_LOG_LEVEL);
  warnUnknownVariables(registry, logger);
  const backends = await backendsFromEnv(process.env, logger);
  const allInOne = isAllInOne(modules, registry);
  const inMemory = embeddedAdapters(process.env);
  const devKeyConfigured = Boolean(process.env.RDE_DEV_API_KEY);
  // On a terminal the banner shows the dev key, so this process chooses it (in memory it is new anyway).
  const showBanner = process.stdout.isTTY && modules.some((m) => m.name === 'gateway');
  const devKey = process.env.RDE_DEV_API_KEY || (showBanner && allInOne && inMemory ? freshDevKey() : undefined);
  const variables = { ...process.env, ...(devKey ? { RDE_DEV_API_KEY: devKey } : {}) };
  const started = await startModules(modules, { env: variables, logger, backends, allInOne });
  const metrics =
    settings.RDE_METRICS_PORT === undefined
      ? undefined
      : await startMetricsServer({
          port: settings.RDE_METRICS_PORT,
          host: settings.RDE_METRICS_HOST,
          logger,
        });
  const addresses = Object.fromEntries([...started.modules].map(([n, m]) => [n, m.address]));
  const forgetInstance = recordInstance(process.env, addresses);
  process.on('exit', forgetInstance);
  logger.info({ target, ms: Math.round(performance.now() - began), modules: addresses }, 'RDE started');
  if (showBanner) {
    const gatewayUrl = started.modules.get('gateway')!.address;
    process.stdout.write(await banner({ gatewayUrl, devKey, devKeyConfigured, inMemory }));
  }
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) process.exit(1);
    stopping = true;
    logger.info({ signal }, 'draining');
    await started.stop();
    await metrics?.close();
    await backends.close();
    await stopTelemetry(logger);
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

/** A misspelt `RDE_*` variable would be ignored in silence: each unknown one is a warning naming the closest known. */
function warnUnknownVariables(registry: readonly ServiceModule[], logger: Logger): void {
  for (const { name, closest } of unknownVariables(process.env, variablesRead(registry))) {
    const hint = closest ? `did you mean ${closest}?` : 'no RDE module reads it';
    logger.warn({ variable: name, closest }, `unknown variable ${name}: ${hint}`);
  }
}

/** Flushes the last spans; an unreachable collector is reported, never a crash on the way out. */
async function stopTelemetry(logger: Logger): Promise<void> {
  await telemetry
    .shutdown()
    .catch((error: unknown) => logger.warn({ err: error }, 'telemetry: the last spans could not be exported'));
}

async function runMigrate(args: string[]): Promise<void> {
  const options = parseMigrateArgs(args);
  const logger = createLogger('rde');
  const backends = await backendsFromEnv(process.env, logger);
  try {
    const migrated = await migrate(options, await loadModules(), { env: process.env, logger, backends });
    logger.info({ modules: migrated }, 'migration done');
  } finally {
    await backends.close();
    await stopTelemetry(logger);
  }
}

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  if (command === 'start') return start(rest);
  if (command === 'migrate') return runMigrate(rest);
  if (command === 'admin') {
    process.exitCode = await admin(rest, process.env);
    return;
  }
  console.error(await usage());
  process.exit(command === undefined || command === 'help' || command === '--help' ? 0 : 2);
}

main(process.argv.slice(2)).catch((error: unknown) => {
  const expected = error instanceof ConfigError || error instanceof TargetError;
  console.error(expected ? `rde: ${(error as Error).message}` : error);
  process.exit(expected ? 2 : 1);
});
