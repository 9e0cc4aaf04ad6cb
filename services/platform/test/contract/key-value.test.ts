import { setTimeout as sleep } from 'node:timers/promises';
import { ManualClock } from '../../src/clock';
import { InMemoryKeyValue } from '../../src/adapters/memory/key-value';
import { RedisKeyValue } from '../../src/adapters/redis/key-value';
import type { KeyValue } from '../../src/ports/key-value';
import { describeKeyValueContract } from './key-value.contract';
import { describeWithEnv, testLogger } from './support/real-backends';

describeKeyValueContract('in-memory', () => {
  const clock = new ManualClock();
  return {
    open: async () => new InMemoryKeyValue(clock),
    elapse: async (ms) => clock.advance(ms),
    close: async () => undefined,
  };
});

describeWithEnv('Redis', ['RDE_REDIS_URL'], ({ RDE_REDIS_URL }) => {
  describeKeyValueContract(RDE_REDIS_URL, () => {
    const opened: KeyValue[] = [];
    return {
      open: async (namespace) => {
        const kv = await RedisKeyValue.connect(RDE_REDIS_URL, namespace, testLogger);
        opened.push(kv);
        return kv;
      },
      elapse: (ms) => sleep(ms),
      close: async () => {
        await Promise.all(opened.map((kv) => kv.close()));
      },
    };
  });
});
