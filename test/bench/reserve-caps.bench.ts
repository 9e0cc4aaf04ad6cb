/**
 * Reserve latency with the spend caps off and on, in the same run: billing's real module over the
 * real store (production adapters when the backends env is exported, else the embedded ones),
 * called over gRPC as the catalog calls it. "Off": a workspace with no cap. "On": a workspace
 * with a workspace cap, the caller's member cap and a session cap, all far from reached, so every
 * Reserve does the full check and its guarded write. Sequential calls, alternating between the
 * two, then the same at a concurrency of 8 on each workspace (where capped Reserves contend).
 * Every hold is released by a final settlement right after its Reserve, as finished work is.
 * Prints figures; asserts nothing on time.
 *
 *   npx tsc -b && eval "$(deploy/backends.sh env)" && npx tsx test/bench/reserve-caps.bench.ts
 *
 * BENCH_RESERVES (1000) sizes each side.
 */
import { createClient } from '@rde/platform';
import { billingCaps, billingSessions } from '@rde/proto';
import { SETTLEMENTS_TOPIC } from '../../services/billing/src/events/settlement-consumer';
import { callerOf, settlementMessage, startBilling, type RunningBilling } from '../../services/billing/test/support';

const RESERVES = Number(process.env.BENCH_RESERVES ?? 1_000);
const CONCURRENCY = 8;
const ONE_MILLICREDIT = { millicredits: 1 };

async function main(): Promise<void> {
  const kind = process.env.RDE_MONGO_URL ? 'production' : 'memory';
  const billing = await startBilling(kind, { RDE_BILLING_REAPER_INTERVAL_MS: '600000' });
  try {
    const uncapped = callerOf('ws_bench_uncapped');
    const capped = await cappedCaller(billing);
    console.log(`reserve-caps bench: store=${kind} reserves=${RESERVES} per side`);
    // Each hold is released right after (a final settlement without charges), as finished work
    // is: the account keeps a realistic handful of open holds instead of thousands.
    const reserve = async (who: typeof uncapped, id: string) => {
      const latency = await timed(() =>
        billing.rpc.reserve({ holdId: id, amount: ONE_MILLICREDIT, ttlMs: 0, description: 'bench', runId: id }, who),
      );
      const release = settlementMessage({ workspaceId: who.caller.workspaceId, holdId: id, charges: [], final: true });
      await billing.bus.publish(SETTLEMENTS_TOPIC, [release]);
      return latency;
    };
    // Warm-up: connections, JIT, both accounts opened.
    for (let i = 0; i < 20; i++) await Promise.all([reserve(uncapped, `wu${i}`), reserve(capped, `wc${i}`)]);

    const off: number[] = [];
    const on: number[] = [];
    for (let i = 0; i < RESERVES; i++) {
      off.push(await reserve(uncapped, `seq_u${i}`));
      on.push(await reserve(capped, `seq_c${i}`));
    }
    report('sequential, caps off', off);
    report('sequential, caps on ', on);

    const concurrent = async (who: typeof uncapped, prefix: string) => {
      const latencies: number[] = [];
      let next = 0;
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          while (next < RESERVES) latencies.push(await reserve(who, `${prefix}${next++}`));
        }),
      );
      return latencies;
    };
    report(`concurrency ${CONCURRENCY}, caps off`, await concurrent(uncapped, 'con_u'));
    report(`concurrency ${CONCURRENCY}, caps on `, await concurrent(capped, 'con_c'));
  } finally {
    await billing.stop();
  }
}

/** A workspace with every cap set high, a member caller and an open session of theirs. */
async function cappedCaller(billing: RunningBilling) {
  const owner = callerOf('ws_bench_capped');
  const member = { caller: { ...owner.caller, userId: 'usr_bench_member', role: 'member' } };
  const { address } = billing;
  const caps = createClient(billingCaps.SpendCapServiceService, {
    address,
    deadlineMs: 5_000,
  });
  const sessions = createClient(billingSessions.SessionServiceService, {
    address,
    deadlineMs: 5_000,
  });
  await caps.rpc.setWorkspaceCap({ capMillicredits: 90_000 }, owner);
  await caps.rpc.setMemberCap({ userId: member.caller.userId, capCents: 100_000 }, owner);
  await caps.rpc.setSessionDefaultCap({ capCents: 100_000 }, owner);
  const { sessionJson } = await sessions.rpc.startSession(
    { stepsJson: Buffer.from('[]'), userPrompt: 'bench' },
    member,
  );
  const sessionId = (JSON.parse(Buffer.from(sessionJson).toString('utf8')) as { id: string }).id;
  caps.close();
  sessions.close();
  return { caller: { ...member.caller, sessionId } };
}

async function timed(call: () => Promise<unknown>): Promise<number> {
  const began = performance.now();
  await call();
  return performance.now() - began;
}

function report(what: string, latencies: number[]): void {
  const sorted = [...latencies].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))].toFixed(2);
  console.log(`  ${what}: median ${at(0.5)} ms, p99 ${at(0.99)} ms (n=${sorted.length})`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
