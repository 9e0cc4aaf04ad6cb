import { parseArgs } from 'node:util';
import { EnvAddressBook, type Backends, type Logger, type ServiceModule, type TopicSpec } from '@rde/platform';
import { resolveTargets, TargetError } from './targets';

export const MIGRATE_USAGE = `  rde migrate [--target=all|<module>[,<module>…]] [--topic=<name>:<partitions>:<replication> …]
      create the modules' indexes and the given Kafka topics in the configured backends (idempotent;
      the Helm chart runs it as a pre-install/upgrade Job)`;

export interface MigrateOptions {
  readonly target: string;
  readonly topics: TopicSpec[];
}

export function parseMigrateArgs(args: string[]): MigrateOptions {
  let values: { target?: string; topic?: string[] };
  try {
    values = parseArgs({
      args,
      options: { target: { type: 'string', default: 'all' }, topic: { type: 'string', multiple: true, default: [] } },
      strict: true,
      allowPositionals: false,
    }).values;
  } catch (error) {
    throw new TargetError((error as Error).message);
  }
  return { target: values.target ?? 'all', topics: (values.topic ?? []).map(parseTopic) };
}

function parseTopic(text: string): TopicSpec {
  const match = /^([a-zA-Z0-9._-]+):([1-9][0-9]*):([1-9][0-9]*)$/.exec(text);
  if (!match)
    throw new TargetError(`--topic=${text}: expected <name>:<partitions>:<replication>, e.g. billing.settlements:12:3`);
  return { topic: match[1]!, partitions: Number(match[2]), replicationFactor: Number(match[3]) };
}

/** Runs every chosen module's migration against `backends`, then creates the topics. */
export async function migrate(
  options: MigrateOptions,
  modules: readonly ServiceModule[],
  context: { env: NodeJS.ProcessEnv; logger: Logger; backends: Backends },
): Promise<string[]> {
  const chosen = resolveTargets(options.target, modules).filter((module) => module.migrate);
  const addresses = new EnvAddressBook(context.env);
  for (const module of chosen) {
    await module.migrate!({ ...context, addresses, allInOne: false });
    context.logger.info({ module: module.name }, 'migrated');
  }
  if (options.topics.length > 0) {
    const bus = await context.backends.bus('rde-migrate');
    await bus.ensureTopics(options.topics);
    context.logger.info({ topics: options.topics.map((t) => t.topic) }, 'topics ready');
  }
  return chosen.map((module) => module.name);
}
