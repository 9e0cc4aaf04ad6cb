import pino from 'pino';
import { ConfigError } from '@rde/platform';
import { backendsFromEnv } from '../src/backends';

const logger = pino({ level: 'silent' });

describe('backendsFromEnv', () => {
  test('with no server configured, the embedded adapters serve', async () => {
    const backends = await backendsFromEnv({}, logger);
    const accounts = (await backends.documentStore('rde_billing')).collection('accounts');
    await accounts.insertOne({ _id: 'ws_1' });
    expect(await accounts.countDocuments()).toBe(1);
    await backends.close();
  });

  test('half a production configuration is refused, naming what is missing', async () => {
    await expect(backendsFromEnv({ RDE_MONGO_URL: 'mongodb://127.0.0.1:1/' }, logger)).rejects.toThrow(
      'missing: RDE_KAFKA_BROKERS, RDE_REDIS_URL',
    );
  });

  test('a malformed namespace or URL is a configuration error', async () => {
    await expect(backendsFromEnv({ RDE_NAMESPACE: 'Bad-Name' }, logger)).rejects.toThrow(ConfigError);
    await expect(backendsFromEnv({ RDE_REDIS_URL: 'http://x' }, logger)).rejects.toThrow(
      /RDE_REDIS_URL="http:\/\/x" is invalid/,
    );
  });
});
