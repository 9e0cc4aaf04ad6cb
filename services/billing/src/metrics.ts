import { Gauge, processMetric, type Clock, type Collection } from '@rde/platform';
import type { AccountDocument } from './store/accounts';

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
