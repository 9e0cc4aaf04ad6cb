/**
 * What `Idempotency-Key` costs a paid call (issue 29, decision 0070; goal ≤ 0.3 ms at the median):
 * the same paid tool call with and without a key, alternated one at a time in the same run so both
 * see the same machine, then a replay of a kept answer. Each keyed call has a key of its own, so it
 * pays the claim and the keep. Prints figures; asserts nothing on time.
 *
 *   pnpm run build && RDE_E2E_MODE=all pnpm exec tsx test/bench/idempotency.bench.ts
 *
 * BENCH_CALLS (400 of each) sizes it; with `deploy/backends.sh env` and RDE_E2E_MODE=distributed
 * the keys live in Redis. The sandbox answers without latency or rate limits. On a shared, loaded
 * machine the calls' spread hides a fraction of a millisecond, so it also times the gateway's own
 * work for a key (claim, then keep a paid answer's size) against the in-memory store and, with
 * RDE_REDIS_URL set, Redis.
 */
import { createLogger, InMemoryKeyValue, RedisKeyValue, type KeyValue } from '../../services/platform/src';
import { IdempotencyRecordsRepository } from '../../services/gateway/src/plugins/idempotency/records';
import { mode, startRde } from '../e2e/harness';
import { describePercentiles, paidCall, percentiles, timed, workspaceKeys } from './lib';

const CALLS = Number(process.env.BENCH_CALLS ?? 400);
/** A paid tool call's answer, about the size of the paid call's (one profile). */
const ANSWER = Buffer.from(JSON.stringify({ data: [{ full_name: 'x'.repeat(300) }], _meta: { run_id: 'run_x' } }));

/** The claim and the keep a keyed request adds, timed alone against one store. */
async function recordCosts(name: string, keyValue: KeyValue): Promise<void> {
  const records = new IdempotencyRecordsRepository(keyValue, {
    retentionMs: 60_000,
    leaseMs: 10_000,
    maxBodyBytes: 1_048_576,
  });
  const costs: number[] = [];
  for (let i = 0; i < 2_000; i++) {
    const key = `bench:${Date.now()}:${i}`;
    costs.push(
      await timed(async () => {
        await records.claim(key, 'fingerprint', 'owner');
        await records.keep(key, 'fingerprint', 'owner', {
          status: 200,
          headers: { 'content-type': 'application/json' },
          body: ANSWER,
        });
      }),
    );
  }
  const { p50, p99 } = percentiles(costs);
  console.log(`claim + keep, ${name}: n=${costs.length} median ${p50.toFixed(3)} ms, p99 ${p99.toFixed(3)} ms`);
  await keyValue.close();
}

async function main(): Promise<void> {
  const rde = await startRde({ RDE_SANDBOX_LATENCY_SCALE: '0', RDE_SANDBOX_RATE_LIMITS: 'false' });
  try {
    const keys = await workspaceKeys(rde, 2 * CALLS + 1);
    const keyOf = (i: number) => keys[i % keys.length]!;
    console.log(`idempotency bench: mode=${mode} calls=${CALLS} with and ${CALLS} without a key, alternated`);
    await paidCall(rde, keyOf(0));
    const plain: number[] = [];
    const keyed: number[] = [];
    // Which goes first alternates: a call's settlement runs on after its answer, into the next call.
    for (let i = 0; i < CALLS; i++) {
      const withoutKey = async () => plain.push(await timed(() => paidCall(rde, keyOf(2 * i))));
      const withKey = async () =>
        keyed.push(await timed(() => paidCall(rde, keyOf(2 * i + 1), { 'idempotency-key': `bench-${i}` })));
      for (const call of i % 2 === 0 ? [withoutKey, withKey] : [withKey, withoutKey]) await call();
    }
    console.log(describePercentiles('paid call without a key', plain));
    console.log(describePercentiles('paid call with a key', keyed));
    const [without, withKey] = [percentiles(plain), percentiles(keyed)];
    console.log(
      `  the key's cost: median ${(withKey.p50 - without.p50).toFixed(2)} ms, p99 ${(withKey.p99 - without.p99).toFixed(2)} ms`,
    );
    const replays: number[] = [];
    for (let i = 0; i < Math.min(CALLS, 100); i++) {
      replays.push(await timed(() => paidCall(rde, keyOf(2 * i + 1), { 'idempotency-key': `bench-${i}` })));
    }
    console.log(describePercentiles('replay of a kept answer', replays));
  } finally {
    await rde.stop();
  }
}

async function storeCosts(): Promise<void> {
  await recordCosts('in memory', new InMemoryKeyValue());
  const url = process.env.RDE_REDIS_URL;
  if (url)
    await recordCosts('Redis', await RedisKeyValue.connect(url, `bench${Date.now()}`, createLogger('bench', 'warn')));
}

main()
  .then(storeCosts)
  .catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
