import { Redis } from 'ioredis';
import type { Logger } from '../../logger';
import type { KeyValue } from '../../ports/key-value';

/** Compare-and-set / compare-and-delete run as one script, so no other client writes in between. */
const SET_IF_ABSENT_OR_EQUAL = `local found = redis.call('GET', KEYS[1])
if found == false or found == ARGV[1] then redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3]) return 1 end
return 0`;
const DELETE_IF_EQUAL = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

type ScriptedRedis = Redis & {
  setIfAbsentOrEqual(key: string, current: string, value: string, ttlMs: number): Promise<number>;
  deleteIfEqual(key: string, current: string): Promise<number>;
};

/** The production key-value store. Every key is stored as `<namespace>:<key>` (ioredis' keyPrefix). */
export class RedisKeyValue implements KeyValue {
  private constructor(private readonly redis: ScriptedRedis) {}

  static async connect(url: string, namespace: string, logger: Logger): Promise<RedisKeyValue> {
    // One reconnect attempt per command: while Redis is down a command fails within about a second
    // (a 503 for its caller) instead of waiting out ioredis' default twenty attempts (issue 30).
    const redis = new Redis(url, {
      keyPrefix: `${namespace}:`,
      lazyConnect: true,
      maxRetriesPerRequest: 1,
    }) as ScriptedRedis;
    // defineCommand sends each script once (EVALSHA after) and prefixes its KEYS like any command
    redis.defineCommand('setIfAbsentOrEqual', { numberOfKeys: 1, lua: SET_IF_ABSENT_OR_EQUAL });
    redis.defineCommand('deleteIfEqual', { numberOfKeys: 1, lua: DELETE_IF_EQUAL });
    // ioredis reconnects by itself; each failed attempt is an 'error' event, logged as JSON like the rest
    redis.on('error', (error: Error) => logger.warn({ err: error, namespace }, 'redis connection error'));
    try {
      await redis.connect();
    } catch (error) {
      redis.disconnect(); // or ioredis keeps reconnecting in the background
      throw error;
    }
    return new RedisKeyValue(redis);
  }

  get(key: string): Promise<string | null> {
    return this.redis.get(key);
  }

  async set(key: string, value: string, options?: { ttlMs?: number }): Promise<void> {
    if (options?.ttlMs) await this.redis.set(key, value, 'PX', options.ttlMs);
    else await this.redis.set(key, value);
  }

  async setIfAbsent(key: string, value: string, ttlMs: number): Promise<boolean> {
    return (await this.redis.set(key, value, 'PX', ttlMs, 'NX')) === 'OK';
  }

  /** SET NX PX creates the counter with its TTL only when absent; INCR keeps an existing TTL. One MULTI. */
  async increment(key: string, ttlMs?: number): Promise<number> {
    if (!ttlMs) return this.redis.incr(key);
    const results = await this.redis.multi().set(key, '0', 'PX', ttlMs, 'NX').incr(key).exec();
    const [, incremented] = results ?? [];
    if (!incremented || incremented[0]) throw incremented?.[0] ?? new Error(`INCR ${key} was not executed`);
    return incremented[1] as number;
  }

  async setIfAbsentOrEqual(key: string, current: string, value: string, ttlMs: number): Promise<boolean> {
    return (await this.redis.setIfAbsentOrEqual(key, current, value, ttlMs)) === 1;
  }

  async delete(key: string): Promise<boolean> {
    return (await this.redis.del(key)) === 1;
  }

  async deleteIfEqual(key: string, current: string): Promise<boolean> {
    return (await this.redis.deleteIfEqual(key, current)) === 1;
  }

  async ttl(key: string): Promise<number | null> {
    const remaining = await this.redis.pttl(key);
    return remaining < 0 ? null : remaining; // -1: no expiry, -2: no key
  }

  async ping(): Promise<void> {
    await this.redis.ping();
  }

  async close(): Promise<void> {
    await this.redis.quit();
  }
}
