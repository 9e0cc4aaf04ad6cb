import { ConfigError, env, type ServiceModule, type ServiceName } from '@rde/platform';
import { checkedConfig, variablesRead } from '../src/config';
import { unknownVariables } from '../src/unknown-variables';

const moduleReading = (name: string, config: ServiceModule['config']): ServiceModule => ({
  name: name as ServiceName,
  dependencies: [],
  config,
  start: async () => ({ address: name, stop: async () => undefined }),
});

const ledger = moduleReading('ledger', { RDE_DEADLINE_MS: env.milliseconds(1_000), RDE_LEDGER_BATCH: env.count(10) });
const web = moduleReading('web', { RDE_DEADLINE_MS: env.milliseconds(1_000), PORT: env.port(8080) });

function problemsOf(variables: NodeJS.ProcessEnv, modules: ServiceModule[]): string[] {
  try {
    checkedConfig(variables, modules);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('checkedConfig', () => {
  test('names every problem of the process and of each module it runs, a shared variable once', () => {
    const problems = problemsOf(
      {
        RDE_LOG_LEVEL: 'loud',
        RDE_DEADLINE_MS: 'soon',
        RDE_LEDGER_BATCH: '0',
        PORT: 'abc',
        RDE_REDIS_URL: 'redis://x',
      },
      [ledger, web],
    );
    expect(problems.sort()).toEqual(
      [
        expect.stringMatching(/^RDE_LOG_LEVEL="loud" is invalid: Invalid enum value/),
        'RDE_DEADLINE_MS="soon" is invalid: expected whole milliseconds, 0 or more',
        'RDE_LEDGER_BATCH="0" is invalid: expected a whole number, 1 or more',
        'PORT="abc" is invalid: expected a port, 0 to 65535 (0 = any free port)',
        'production adapters need RDE_MONGO_URL, RDE_KAFKA_BROKERS and RDE_REDIS_URL; missing: RDE_MONGO_URL, RDE_KAFKA_BROKERS',
      ].sort(),
    );
  });

  test('checks only the modules the process runs', () => {
    expect(checkedConfig({ PORT: 'abc', RDE_METRICS_PORT: '9464' }, [ledger])).toMatchObject({
      RDE_LOG_LEVEL: 'info',
      RDE_METRICS_PORT: 9464,
    });
  });
});

describe('unknown variables', () => {
  const read = variablesRead([ledger, web]);

  test('RDE reads each module’s declared variables, each module’s address and its own', () => {
    expect(read).toEqual(
      expect.arrayContaining([
        'RDE_LEDGER_BATCH',
        'PORT',
        'RDE_LEDGER_ADDR',
        'RDE_WEB_ADDR',
        'RDE_LOG_LEVEL',
        'RDE_MONGO_URL',
      ]),
    );
  });

  test('a misspelt name gets the closest known one; a name far from every known one gets none', () => {
    expect(unknownVariables({ RDE_LEDGER_BTACH: '5', RDE_LOG_LVL: 'debug', RDE_COMPLETELY_NEW: '1' }, read)).toEqual([
      { name: 'RDE_LEDGER_BTACH', closest: 'RDE_LEDGER_BATCH' },
      { name: 'RDE_LOG_LVL', closest: 'RDE_LOG_LEVEL' },
      { name: 'RDE_COMPLETELY_NEW', closest: undefined },
    ]);
  });

  test('known names, the scripts’ and tests’ variables and names outside RDE_ are not reported', () => {
    const variables = {
      RDE_LEDGER_BATCH: '5',
      RDE_WEB_ADDR: '127.0.0.1:1',
      RDE_KEY: 'rde_live_x',
      RDE_TALLY_FILE: '/tmp/t',
      RDE_E2E_MODE: 'all',
      RDE_LOCAL_PORT: '18080',
      RDE_MONGO_PORT: '27019',
      NODE_ENV: 'production',
      PORTT: '1',
    };
    expect(unknownVariables(variables, read)).toEqual([]);
  });
});
