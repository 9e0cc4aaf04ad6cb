import {
  EnvAddressBook,
  ManualClock,
  RdeError,
  createBackends,
  createClient,
  createLogger,
  namespacedBackends,
  type Backends,
  type Bus,
  type Caller,
  type Clock,
  type ServiceClient,
} from '@rde/platform';
import { billing, billingCaps, billingEvents } from '@rde/proto';
import { billingModule } from '../src';

export type BillingRpc = ServiceClient<typeof billing.BillingServiceService>['rpc'];
export type SpendCapRpc = ServiceClient<typeof billingCaps.SpendCapServiceService>['rpc'];

export interface RunningBilling {
  clock: ManualClock;
  /** where its gRPC server listens (every billing service) */
  address: string;
  rpc: BillingRpc;
  caps: SpendCapRpc;
  /** Publishes on the bus billing consumes, as a producing service's outbox relay would. */
  bus: Bus;
  stop(): Promise<void>;
}

export const testLogger = createLogger('billing-test', process.env.RDE_LOG_LEVEL ?? 'silent');

export type BackendKind = 'memory' | 'production';

const REAL_BACKENDS = ['RDE_MONGO_URL', 'RDE_KAFKA_BROKERS', 'RDE_REDIS_URL'] as const;

/**
 * Memory always; MongoDB (mongo-java-server), Kafka and Redis too when configured, or when CI requires them
 * (RDE_REQUIRE_REAL_BACKENDS=true), so the guarded updates are proven on the real store as well.
 */
export const BACKEND_KINDS: BackendKind[] =
  REAL_BACKENDS.every((name) => process.env[name]) || process.env.RDE_REQUIRE_REAL_BACKENDS === 'true'
    ? ['memory', 'production']
    : ['memory'];

function backendsOf(kind: BackendKind, clock: Clock): Backends {
  if (kind === 'memory') return createBackends({ kind, clock, logger: testLogger });
  const missing = REAL_BACKENDS.filter((name) => !process.env[name]);
  if (missing.length > 0) throw new Error(`real backends required but ${missing.join(', ')} not set`);
  const production = createBackends({
    kind,
    clock,
    logger: testLogger,
    mongoUrl: process.env.RDE_MONGO_URL!,
    kafkaBrokers: process.env.RDE_KAFKA_BROKERS!.split(','),
    redisUrl: process.env.RDE_REDIS_URL!,
  });
  // Databases, topics, groups and keys of their own, so runs never see each other's data.
  return namespacedBackends(production, `billingtest${Date.now().toString(36)}_`);
}

/** The real billing module over the given backends, reached through its gRPC API. */
export async function startBilling(kind: BackendKind, env: NodeJS.ProcessEnv = {}): Promise<RunningBilling> {
  const clock = new ManualClock();
  const backends = backendsOf(kind, clock);
  const running = await billingModule.start({
    env: { RDE_BILLING_PORT: '0', RDE_BILLING_REAPER_INTERVAL_MS: '20', ...env },
    logger: testLogger,
    backends,
    addresses: new EnvAddressBook({}),
    allInOne: true,
  });
  const client = createClient(billing.BillingServiceService, {
    address: running.address,
    deadlineMs: 5_000,
  });
  const caps = createClient(billingCaps.SpendCapServiceService, { address: running.address, deadlineMs: 5_000 });
  return {
    clock,
    address: running.address,
    rpc: client.rpc,
    caps: caps.rpc,
    bus: await backends.bus('test-producer'),
    async stop() {
      client.close();
      caps.close();
      await running.stop();
      await backends.close();
    },
  };
}

export function callerOf(workspaceId: string): { caller: Caller } {
  return {
    caller: { workspaceId, userId: `usr_${workspaceId}`, role: 'owner', keyId: '', sessionId: '', requestId: '' },
  };
}

/** `credits` as millicredits in a proto Credits. */
export const credits = (value: number) => ({ millicredits: Math.round(value * 1000) });

export function settlementMessage(settlement: {
  workspaceId: string;
  holdId: string;
  charges: Array<[chargeId: string, credits: number]>;
  final: boolean;
  /** When the writer made it (ms since the epoch); 0: unknown, as in most tests. */
  createdAtMs?: number;
}) {
  const value = billingEvents.Settlement.encode({
    settlementId: `${settlement.holdId}:${settlement.charges.map(([id]) => id).join(',')}`,
    workspaceId: settlement.workspaceId,
    holdId: settlement.holdId,
    runId: settlement.holdId,
    charges: settlement.charges.map(([chargeId, amount]) => ({
      chargeId,
      amount: credits(amount),
      description: `charge ${chargeId}`,
      userId: `usr_${settlement.workspaceId}`,
      sessionId: '',
    })),
    final: settlement.final,
    createdAtMs: settlement.createdAtMs ?? 0,
  }).finish();
  return { key: settlement.workspaceId, value: Buffer.from(value) };
}

/** The workspace's money in credits, as the public interface shows it. */
export async function moneyOf(rpc: BillingRpc, workspaceId: string) {
  const { account } = await rpc.getBalance({ recent: 0 }, callerOf(workspaceId));
  const value = (c?: { millicredits: number }) => (c?.millicredits ?? 0) / 1000;
  return {
    balance: value(account?.balance),
    reserved: value(account?.reserved),
    available: value(account?.available),
    openHolds: account?.openHolds ?? 0,
  };
}

export async function ledgerOf(rpc: BillingRpc, workspaceId: string) {
  const { entries } = await rpc.listLedger({ page: { offset: 0, limit: 1_000 } }, callerOf(workspaceId));
  return entries.map((entry) => ({
    id: entry.id,
    kind: entry.kind,
    amount: (entry.amount?.millicredits ?? 0) / 1000,
    balanceAfter: entry.balanceAfter === undefined ? undefined : entry.balanceAfter.millicredits / 1000,
  }));
}

export async function eventually(condition: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** The public error a rejected call carries. */
export async function rejection(call: Promise<unknown>): Promise<{ status: number; body: Record<string, unknown> }> {
  try {
    await call;
  } catch (error) {
    if (error instanceof RdeError) return { status: error.httpStatus, body: error.body };
    throw error;
  }
  throw new Error('the call succeeded');
}
