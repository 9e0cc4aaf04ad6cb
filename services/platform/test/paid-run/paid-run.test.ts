import { createBackends } from '../../src/adapters';
import { ManualClock } from '../../src/clock';
import { namespacedBackends } from '../../src/namespaced-backends';
import { describeWithEnv, testLogger, uniqueName } from '../contract/support/real-backends';
import { meteringAfter } from '../../src/paid-run';
import { describePaidRunContract } from './paid-run.contract';

jest.setTimeout(60_000);

describePaidRunContract('in-memory store and bus', async () =>
  createBackends({ kind: 'memory', clock: new ManualClock(), logger: testLogger }),
);

describeWithEnv('MongoDB-wire server and Kafka', ['RDE_MONGO_URL', 'RDE_KAFKA_BROKERS', 'RDE_REDIS_URL'], (env) => {
  describePaidRunContract(`${env.RDE_MONGO_URL} and ${env.RDE_KAFKA_BROKERS}`, async () =>
    namespacedBackends(
      createBackends({
        kind: 'production',
        mongoUrl: env.RDE_MONGO_URL,
        kafkaBrokers: env.RDE_KAFKA_BROKERS.split(','),
        redisUrl: env.RDE_REDIS_URL,
        logger: testLogger,
      }),
      `${uniqueName('kit')}_`,
    ),
  );
});

describe('metering after a paid call', () => {
  test("reserved is the workspace's other open holds, not the call's own released hold", () => {
    // A lone call: Reserve answered with only its own 1-credit hold open; its charge is final.
    const lone = meteringAfter({ balance: 100_000, reserved: 1_000 }, 1_000, 1_000);
    expect(lone).toEqual({ balance: 99_000, reserved: 0, settled: true });
    // Another call's 4-credit hold stays counted, and the balance is provisional (balance − holds).
    const beside = meteringAfter({ balance: 100_000, reserved: 5_000 }, 1_000, 1_000);
    expect(beside).toEqual({ balance: 95_000, reserved: 4_000, settled: false });
  });

  test("a zero-charge call never shows more than the workspace's credits, and alone it is settled", () => {
    const alone = meteringAfter({ balance: 100_000, reserved: 2_000 }, 2_000, 0);
    expect(alone).toEqual({ balance: 100_000, reserved: 0, settled: true });
    expect(alone.balance + alone.reserved).toBeLessThanOrEqual(100_000);
    const beside = meteringAfter({ balance: 100_000, reserved: 5_000 }, 2_000, 0);
    expect(beside).toEqual({ balance: 97_000, reserved: 3_000, settled: false });
    expect(beside.balance + beside.reserved).toBe(100_000);
  });
});
