/**
 * What `Idempotency-Key` costs a paid call (issue 29, decision 0070; goal ≤ 0.3 ms at the median):
 * the same paid tool call with and without a key, alternated one at a time in the same run so both
 * see the same machine, then a replay of a kept answer. Each keyed call has a key of its own, so it
 * pays the claim and the keep. Prints figures; asserts nothing on time.
 *
 *   pnpm run build && RDE_E2E_MODE=all pnpm exec tsx test/bench/idempotency.bench.ts
 *
 * BENCH_CALLS (400 of each) sizes it; with `deploy/backends.sh env` and RDE_E2E_MODE=distributed
 * the keys live in Redis. The sandbox answers without latency or rate limits.
 */
import { mode, startRde } from '../e2e/harness';
import { describePercentiles, paidCall, percentiles, timed, workspaceKeys } from './lib';

const CALLS = Number(process.env.BENCH_CALLS ?? 400);

async function main(): Promise<void> {
  const rde = await startRde({ RDE_SANDBOX_LATENCY_SCALE: '0', RDE_SANDBOX_RATE_LIMITS: 'false' });
  try {
    const keys = await workspaceKeys(rde, 2 * CALLS + 1);
    const keyOf = (i: number) => keys[i % keys.length]!;
    console.log(`idempotency bench: mode=${mode} calls=${CALLS} with and ${CALLS} without a key, alternated`);
    await paidCall(rde, keyOf(0));
    const plain: number[] = [];
    const keyed: number[] = [];
    for (let i = 0; i < CALLS; i++) {
      plain.push(await timed(() => paidCall(rde, keyOf(2 * i))));
      keyed.push(await timed(() => paidCall(rde, keyOf(2 * i + 1), { 'idempotency-key': `bench-${i}` })));
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

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
