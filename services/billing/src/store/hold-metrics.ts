import { Gauge, Histogram, processMetric, type Clock, type Collection } from '@rde/platform';
import type { AccountDocument } from './accounts';

/**
 * Open holds and the oldest one's age, read from the accounts at scrape time: a hold that outlives
 * its run (a stuck settlement, a reaper that stopped) shows as a growing age. Only accounts with
 * open holds are read.
 */
export function registerHoldMetrics(accounts: Collection<AccountDocument>, clock: Clock): void {
  const summary = async () => {
    const holding = await accounts.find({ open_holds: { $gt: 0 } });
    const holds = holding.flatMap((account) => Object.values(account.holds ?? {}));
    const oldest = Math.min(...holds.map((hold) => hold.created_at));
    return { open: holds.length, oldestAgeSeconds: holds.length === 0 ? 0 : Math.max(0, clock.now() - oldest) / 1000 };
  };
  processMetric(
    'rde_billing_open_holds',
    () =>
      new Gauge({
        name: 'rde_billing_open_holds',
        help: 'Credit holds reserved and not yet settled or released',
        async collect() {
          this.set((await summary()).open);
        },
      }),
  );
  processMetric(
    'rde_billing_oldest_hold_age_seconds',
    () =>
      new Gauge({
        name: 'rde_billing_oldest_hold_age_seconds',
        help: 'Age of the oldest open credit hold (0 when none is open)',
        async collect() {
          this.set((await summary()).oldestAgeSeconds);
        },
      }),
  );
}

/**
 * From a settlement's creation (its `created_at_ms`, set by the writer) to its batch applied here:
 * the delay before a paid call shows on the balance and the ledger. Observed before the offsets
 * are committed, once per delivery (a replayed batch observes again).
 */
export const settlementLag = processMetric(
  'rde_billing_settlement_lag_seconds',
  () =>
    new Histogram({
      name: 'rde_billing_settlement_lag_seconds',
      help: 'Seconds from a settlement written to it applied by the settlement consumer',
      buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
    }),
);
