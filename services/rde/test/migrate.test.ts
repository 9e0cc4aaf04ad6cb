import pino from 'pino';
import type { ServiceModule, ServiceName } from '@rde/platform';
import { backendsFromEnv } from '../src/backends';
import { migrate, parseMigrateArgs } from '../src/migrate';
import { TargetError } from '../src/targets';

const logger = pino({ level: 'silent' });

/** Modules that record their migration; `web` has none, like the gateway. */
function recordingModules(migrated: string[]): ServiceModule[] {
  // Made-up names stand outside the registry's type on purpose.
  const module = (name: string, dependencies: string[] = []): ServiceModule => ({
    name: name as ServiceName,
    dependencies: dependencies as ServiceName[],
    config: {},
    start: async () => ({ address: '', stop: async () => undefined }),
    migrate: async () => void migrated.push(name),
  });
  return [module('ledger'), module('calls', ['ledger']), { ...module('web'), migrate: undefined }];
}

describe('rde migrate', () => {
  test('options: targets and topics; a malformed topic is a usage error naming the expected shape', () => {
    expect(parseMigrateArgs(['--target=ledger', '--topic=billing.settlements:12:3', '--topic=x:1:1'])).toEqual({
      target: 'ledger',
      topics: [
        { topic: 'billing.settlements', partitions: 12, replicationFactor: 3 },
        { topic: 'x', partitions: 1, replicationFactor: 1 },
      ],
    });
    expect(parseMigrateArgs([])).toEqual({ target: 'all', topics: [] });
    expect(() => parseMigrateArgs(['--topic=billing.settlements:0:3'])).toThrow(/<name>:<partitions>:<replication>/);
    expect(() => parseMigrateArgs(['--bogus'])).toThrow(TargetError);
  });

  test('migrates each chosen module once, in dependency order, then creates the topics (twice is harmless)', async () => {
    // The configured backends: real Kafka, MongoDB and Redis in the test command, embedded otherwise.
    const backends = await backendsFromEnv({ ...process.env, RDE_NAMESPACE: `migrate_${process.pid}_` }, logger);
    try {
      const migrated: string[] = [];
      const options = parseMigrateArgs(['--target=calls,web,ledger', '--topic=migrate.test:2:1']);
      const context = { env: {}, logger, backends };
      expect(await migrate(options, recordingModules(migrated), context)).toEqual(['ledger', 'calls']);
      expect(await migrate(options, recordingModules(migrated), context)).toEqual(['ledger', 'calls']);
      expect(migrated).toEqual(['ledger', 'calls', 'ledger', 'calls']);

      const bus = await backends.bus('migrate-test');
      const received = new Promise<string>((resolve) => {
        void bus.subscribe({ group: 'migrate-test', topic: 'migrate.test' }, async (message) =>
          resolve(message.value.toString()),
        );
      });
      await bus.publish('migrate.test', [{ key: 'ws', value: Buffer.from('on a migrated topic') }]);
      expect(await received).toBe('on a migrated topic');
    } finally {
      await backends.close();
    }
  });
});
