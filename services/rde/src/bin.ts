#!/usr/bin/env node
// Telemetry first: its instrumentations patch http, gRPC and the drivers as they load.
import { startTelemetry } from '@rde/platform/dist/telemetry';
const telemetry = startTelemetry('rde');

import { parseArgs } from 'node:util';
import { ConfigError, createLogger } from '@rde/platform';
import { admin, ADMIN_USAGE } from './admin';
import { backendsFromEnv } from './backends';
import { startModules } from './start';
import { resolveTargets, TargetError } from './targets';

// The modules load only for `start`, so `rde admin` answers without loading every service.
const loadModules = async () => (await import('./modules.js')).MODULES;

async function usage(): Promise<string> {
  return `usage:
  rde start [--target=all|<module>[,<module>…]]   run RDE (default: every module in one process)
${ADMIN_USAGE}

modules: ${(await loadModules()).map((m) => m.name).join(', ')}`;
}

async function start(args: string[]): Promise<void> {
  const { values } = parseArgs({ args, options: { target: { type: 'string', default: 'all' } } });
  const target = values.target ?? 'all';
  const logger = createLogger('rde');
  const began = performance.now();
  const modules = resolveTargets(target, await loadModules());
  const backends = await backendsFromEnv(process.env, logger);
  const started = await startModules(modules, { env: process.env, logger, backends, allInOne: target === 'all' });
  logger.info(
    {
      target,
      ms: Math.round(performance.now() - began),
      modules: Object.fromEntries([...started.modules].map(([n, m]) => [n, m.address])),
    },
    'RDE started',
  );
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) process.exit(1);
    stopping = true;
    logger.info({ signal }, 'draining');
    await started.stop();
    await backends.close();
    await telemetry.shutdown();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  if (command === 'start') return start(rest);
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
