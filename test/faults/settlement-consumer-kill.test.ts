import { api } from '../e2e/api';
import { mode, startRde, waitUntil, type RunningRde } from '../e2e/harness';

jest.setTimeout(180_000);

/** Long enough to see the consumer's pause in its log and kill it inside the window. */
const PAUSE_AFTER_APPLY_MS = 8_000;
const FREE_GRANT = 100;

/**
 * Billing's settlement consumer is killed (SIGKILL) after it applied a settlement and before it
 * committed the Kafka offset, then restarted: the settlement is delivered again and applied as a
 * no-op, so the charge is on the ledger once and the balance moved once. Needs the real Kafka and
 * store, and a billing process of its own to kill (the replica that applied it): distributed mode only.
 */
const describeDistributed = mode === 'distributed' ? describe : describe.skip;

describeDistributed('fault: the settlement consumer dies between applying and committing', () => {
  let rde: RunningRde;

  beforeAll(async () => {
    rde = await startRde({ RDE_FAULT_PAUSE_AFTER_APPLY_MS: String(PAUSE_AFTER_APPLY_MS) });
  });

  afterAll(async () => {
    await rde?.stop();
  });

  /** Where billing applied a settlement and paused before committing: its fault-injection log line. */
  interface Delivery {
    replica: string;
    runId: string;
    partition: number;
    offset: string;
  }

  const deliveries = (runId: string): Delivery[] =>
    rde
      .logLines()
      .filter(({ text }) => text.includes('"fault injection: settlement applied'))
      .map(({ process, text }) => ({ replica: process, ...(JSON.parse(text) as Omit<Delivery, 'replica'>) }))
      .filter((delivery) => delivery.runId === runId);

  test('a paid call is billed exactly once across the kill and the replay', async () => {
    const call = await api(rde, 'POST', '/tools/pplgraph/search', {
      body: { payload: { query: { job_title: ['Software Engineer'] }, size: 3 } },
    });
    expect(call.status).toBe(200);
    const { credits_charged: charged, run_id: runId } = call.body._meta;
    expect(charged).toBeGreaterThan(0);

    await waitUntil(async () => deliveries(runId).length > 0, 30_000);
    const [applied] = deliveries(runId);
    await rde.stopModule(applied!.replica, 'SIGKILL');
    await rde.restartModule(applied!.replica);
    // The uncommitted message itself comes back once the group gives the dead member's partition
    // away. The outbox, which publishes at least once, may also have sent the settlement twice,
    // so the redelivery is recognised by its place in the topic, not by counting.
    const redelivered = () =>
      deliveries(runId)
        .slice(1)
        .some(({ partition, offset }) => partition === applied!.partition && offset === applied!.offset);
    await waitUntil(async () => redelivered(), 90_000, 250);

    const csv = await api(rde, 'GET', '/api/v2/billing/ledger.csv');
    const [header, ...rows] = csv.text
      .trimEnd()
      .split('\n')
      .map((line) => line.split(','));
    const runIdColumn = header.indexOf('run_id');
    const charges = rows.filter((row) => row[runIdColumn] === runId);
    expect(charges).toHaveLength(1);
    expect(rows).toHaveLength(2); // the free grant and this one charge

    const balance = await api(rde, 'GET', '/billing/balance');
    expect(balance.body).toMatchObject({
      balance: FREE_GRANT - charged,
      reserved: 0,
      available: FREE_GRANT - charged,
      _meta: { settled: true },
    });
  });
});
