/**
 * Billing's settlement consumer alone: BENCH_HOLDS (10,000) holds reserved over BENCH_WORKSPACES
 * (40) workspaces (0.3 credits each: the free grants cover them) through billing's gRPC API, then one final settlement of one charge per hold
 * published to the settlement topic as catalog's outbox relay would, and the time until every hold
 * is settled (charge on the ledger with its balance after, hold released). Prints charges/s.
 * Then the lag at a steady BENCH_RATE (1,000) charges/s for BENCH_RATE_SECONDS (5): settlements
 * published every 100 ms, each stamped with its creation time, and the consumer's own lag
 * histogram (`rde_billing_settlement_lag_seconds`: creation → batch applied) read afterwards.
 * Asserts nothing on time.
 *
 *   npx tsc -b && npx tsx test/bench/settlement-consumer.bench.ts                       (embedded)
 *   eval "$(deploy/backends.sh env)" && npx tsx test/bench/settlement-consumer.bench.ts (real Kafka, store)
 */
import { SETTLEMENTS_TOPIC } from '../../services/billing/src/events/settlement-consumer';
import { settlementLag } from '../../services/billing/src/store/hold-metrics';
import {
  BACKEND_KINDS,
  callerOf,
  credits,
  moneyOf,
  settlementMessage,
  startBilling,
  type RunningBilling,
} from '../../services/billing/test/support';

const HOLDS = Number(process.env.BENCH_HOLDS ?? 10_000);
const WORKSPACES = Number(process.env.BENCH_WORKSPACES ?? 40);
const RATE = Number(process.env.BENCH_RATE ?? 1_000);
const RATE_SECONDS = Number(process.env.BENCH_RATE_SECONDS ?? 5);
const PUBLISH_CHUNK = 1_000;
const TICK_MS = 100;
/** Seldom, so the polling (billing reads the ledger for it) takes little from the consumer. */
const POLL_MS = 250;

async function main(): Promise<void> {
  const kind = BACKEND_KINDS.at(-1)!;
  // The reaper (every 20 ms in billing's tests) would scan every account with open holds meanwhile.
  const billing = await startBilling(kind, { RDE_BILLING_REAPER_INTERVAL_MS: '600000' });
  try {
    const holds = holdsNamed('b', HOLDS);
    await reserveAll(billing, holds);
    console.log(`settlement consumer bench: backends=${kind} charges=${HOLDS} workspaces=${WORKSPACES}`);

    const began = performance.now();
    for (let i = 0; i < holds.length; i += PUBLISH_CHUNK) {
      await billing.bus.publish(SETTLEMENTS_TOPIC, holds.slice(i, i + PUBLISH_CHUNK).map(settlementOf));
    }
    const published = performance.now() - began;
    await untilNoOpenHold(billing);
    const seconds = (performance.now() - began) / 1000;
    console.log(`  published in ${published.toFixed(0)} ms; all applied after ${(seconds * 1000).toFixed(0)} ms`);
    console.log(`  ${(HOLDS / seconds).toFixed(0)} charges/s`);

    const steady = holdsNamed('r', RATE * RATE_SECONDS);
    await reserveAll(billing, steady);
    settlementLag.reset();
    const perTick = Math.round((RATE * TICK_MS) / 1000);
    for (let i = 0; i < steady.length; i += perTick) {
      const tick = performance.now();
      await billing.bus.publish(SETTLEMENTS_TOPIC, steady.slice(i, i + perTick).map(settlementOf));
      await new Promise((r) => setTimeout(r, Math.max(0, TICK_MS - (performance.now() - tick))));
    }
    await untilNoOpenHold(billing);
    const lag = await lagPercentiles();
    console.log(
      `  at ${RATE} charges/s for ${RATE_SECONDS} s: settlement lag p50 ≤ ${lag.p50} s, p99 ≤ ${lag.p99} s (histogram bounds)`,
    );
  } finally {
    await billing.stop();
  }
}

function holdsNamed(prefix: string, count: number) {
  return Array.from({ length: count }, (_, i) => ({
    workspace: `ws_bench${i % WORKSPACES}`,
    hold: `run_${prefix}${i}`,
  }));
}

/** One final settlement of one 0.2-credit charge on the hold, stamped now. */
function settlementOf({ workspace, hold }: { workspace: string; hold: string }) {
  return settlementMessage({
    workspaceId: workspace,
    holdId: hold,
    charges: [[`${hold}:0:0`, 0.2]],
    final: true,
    createdAtMs: Date.now(),
  });
}

/** The upper bounds of the lag histogram's buckets holding the median and the 99th percentile. */
async function lagPercentiles(): Promise<{ p50: number; p99: number }> {
  const { values } = await settlementLag.get();
  const buckets = values
    .filter((value) => value.metricName === 'rde_billing_settlement_lag_seconds_bucket')
    .map((value) => ({ le: Number(value.labels.le), count: value.value }));
  const total = buckets.at(-1)?.count ?? 0;
  const at = (q: number) => buckets.find(({ count }) => count >= q * total)?.le ?? Infinity;
  return { p50: at(0.5), p99: at(0.99) };
}

async function reserveAll(billing: RunningBilling, holds: { workspace: string; hold: string }[]): Promise<void> {
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < holds.length; i = next++) {
      const { workspace, hold } = holds[i]!;
      await billing.rpc.reserve(
        { holdId: hold, amount: credits(0.3), ttlMs: 600_000, description: 'bench', runId: hold },
        callerOf(workspace),
      );
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
}

/** Polls the workspaces still holding something, all at once, until none does. */
async function untilNoOpenHold(billing: RunningBilling): Promise<void> {
  let open = Array.from({ length: WORKSPACES }, (_, w) => `ws_bench${w}`);
  while (open.length > 0) {
    const holding = await Promise.all(open.map(async (workspace) => (await moneyOf(billing.rpc, workspace)).openHolds));
    open = open.filter((_, i) => holding[i]! > 0);
    if (open.length > 0) await new Promise((r) => setTimeout(r, POLL_MS));
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
