import { createBackends, createLogger, CreditHolds, errors, ManualClock } from '@rde/platform';
import { RunHolds } from '../src/app/runs/run-holds';
import type { BillingClient } from '../src/clients';
import { EnrichRunRepository } from '../src/store/enrich-runs';
import { DatasetRunRepository, type NewDatasetRun } from '../src/store/dataset-runs';

const TTL_MS = 9_000;
const WORST = 1_000;

/** Billing as far as a run's hold goes: one hold that is open or gone, and an available balance. */
class BillingDouble {
  holdOpen = true;
  available = 0;
  readonly reserved: number[] = [];
  renewals = 0;

  readonly client = {
    renewHold: async () => {
      this.renewals++;
      return { renewed: this.holdOpen, expiresAtMs: this.holdOpen ? 1 : 0 };
    },
    getBalance: async () => ({ account: { available: { millicredits: this.available } } }),
    reserve: async ({ amount }: { amount: { millicredits: number } }) => {
      if (amount.millicredits > this.available) throw errors.paymentRequired({ error: 'insufficient_credits' });
      this.reserved.push(amount.millicredits);
      this.holdOpen = true;
      return { held: { millicredits: amount.millicredits } };
    },
  } as unknown as BillingClient;
}

describe('a dataset run keeps its hold (decision 0031, amended)', () => {
  const clock = new ManualClock();
  let runs: DatasetRunRepository;
  let billing: BillingDouble;
  let holds: RunHolds;

  beforeEach(async () => {
    const backends = createBackends({ kind: 'memory', clock });
    const store = await backends.documentStore('rde_waterfall');
    runs = new DatasetRunRepository(await EnrichRunRepository.open(store, clock), clock);
    billing = new BillingDouble();
    holds = new RunHolds({
      runs,
      holds: new CreditHolds(billing.client, TTL_MS),
      clock,
      logger: createLogger('test', 'silent'),
    });
    // 50 rows held at 1 credit; 20 charged so far, 10 rows' worst case admitted to a chunk in flight.
    await runs.start(newRun(clock.now()), []);
    await runs.take('enr_1', 20 * WORST);
    await runs.countChunk('enr_1', 0, { rows: 20, spent: 20 * WORST, unused: 0, admitted: true });
    await runs.take('enr_1', 10 * WORST);
  });

  const run = async () => (await runs.get('enr_1'))!;

  test('a due hold is renewed once per third of its lifetime, by whichever replica sweeps', async () => {
    await holds.keep(10);
    expect(billing.renewals).toBe(0);
    clock.advance(TTL_MS / 3);
    await holds.keep(10);
    await holds.keep(10);
    expect(billing.renewals).toBe(1);
    expect((await run()).hold_renew_after!.getTime()).toBe(clock.now() + TTL_MS / 3);
  });

  test('a lapsed hold is held again for what the balance covers; the budget shrinks by the rest', async () => {
    billing.holdOpen = false;
    billing.available = 12_500;
    clock.advance(TTL_MS / 3);
    await holds.keep(10);
    // It still held 30 credits (20 of budget, 10 in flight); the balance covers 12 whole rows.
    expect(billing.reserved).toEqual([12 * WORST]);
    expect(await run()).toMatchObject({ budget_left: 2 * WORST, reserved_millicredits: 32 * WORST });
  });

  test('a lapsed hold with nothing available leaves the run no budget: its later rows are not reached', async () => {
    billing.holdOpen = false;
    clock.advance(TTL_MS / 3);
    await holds.keep(10);
    expect(billing.reserved).toEqual([]);
    expect(await run()).toMatchObject({ budget_left: 0, reserved_millicredits: 20 * WORST });
  });

  test('a hold released because the run ended is not taken again', async () => {
    billing.holdOpen = false;
    billing.available = 100_000;
    const settlement = {
      id: 'enr_1:settlement:final',
      topic: 'billing.settlements',
      key: 'ws_1',
      value: new Uint8Array(),
    };
    await runs.finish('enr_1', { status: 'completed', openJobs: [] }, settlement);
    clock.advance(TTL_MS / 3);
    await holds.keep(10);
    expect(billing.reserved).toEqual([]);
  });
});

function newRun(now: number): NewDatasetRun {
  return {
    _id: 'enr_1',
    kind: 'dataset',
    workspace_id: 'ws_1',
    user_id: 'usr_1',
    session_id: '',
    capability: 'email_enrichment',
    steps: ['email_enrichment'],
    dataset_id: 'ds_1',
    input_dataset_id: '',
    in_place: false,
    output_name: '',
    row_total: 50,
    range_start: 0,
    range_end: 50,
    total: 50,
    worst_per_row_millicredits: WORST,
    rows_covered: 50,
    reserved_millicredits: 50 * WORST,
    budget_left: 50 * WORST,
    hold_renew_after: new Date(now + TTL_MS / 3),
    chunk_count: 5,
    rows: [],
    lease_owner: '',
    lease_until: new Date(0),
    replay_key: 'k',
  };
}
