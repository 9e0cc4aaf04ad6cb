import type { Caller, Clock, CreditHolds, Logger } from '@rde/platform';
import type { DatasetRunDocument, DatasetRunRepository } from '../../store/dataset-runs';
import { callerOf } from '../../domain/callers';

/** Rounds of a guarded budget write lost to chunks moving the budget before giving up until the next sweep. */
const SHRINK_ROUNDS = 10;

export interface RunHoldsDependencies {
  readonly runs: DatasetRunRepository;
  /** The run's hold; renewed every third of its lifetime, so two missed sweeps still leave it standing. */
  readonly holds: CreditHolds;
  readonly clock: Clock;
  readonly logger: Logger;
}

/**
 * Keeps a dataset run's one credit hold alive for as long as the run runs (decision 0031,
 * amended): any replica's sweep renews the holds that are due (billing's RenewHold only ever moves
 * an open hold's expiry later, so two replicas renewing at once is harmless). A hold that lapsed
 * anyway (every replica down longer than its lifetime) is never spent past: the run holds again
 * what the balance covers of what it still held, and its budget shrinks by what it could not get
 * back, so it stops with rows not reached rather than bill beyond the balance (rule 2).
 */
export class RunHolds {
  constructor(private readonly deps: RunHoldsDependencies) {}

  /** Renews the holds of up to `limit` running runs that are due; a run that fails is tried next sweep. */
  async keep(limit: number): Promise<void> {
    const { runs, clock, logger } = this.deps;
    for (const run of await runs.holdsDue(new Date(clock.now()), limit)) {
      try {
        await this.renew(run);
      } catch (error) {
        logger.warn({ err: error, runId: run._id }, 'could not renew a run hold; the next sweep tries again');
      }
    }
  }

  private async renew(run: DatasetRunDocument): Promise<void> {
    const { runs, holds, clock } = this.deps;
    const caller = callerOf(run);
    if (!(await holds.renew(run._id, caller))) {
      // Gone: the run ended and its final settlement released it, or it lapsed under a running run.
      const current = await runs.get(run._id);
      if (current?.status !== 'running') return;
      await this.holdAgain(current, caller);
    }
    await runs.holdRenewed(run._id, new Date(clock.now() + holds.ttlMs / 3));
  }

  /** A lapsed hold: holds again what the balance covers (whole rows) of what the run still held. */
  private async holdAgain(run: DatasetRunDocument, caller: Caller): Promise<void> {
    const { runs, logger } = this.deps;
    const held = await this.reserveWhatFits(run, caller);
    for (let round = 0, seen: DatasetRunDocument | null = run; round < SHRINK_ROUNDS && seen; round++) {
      if (seen.status !== 'running') return;
      const shortfall = outstandingOf(seen) - held;
      if (shortfall <= 0 || (await runs.shrinkHold(seen, shortfall))) {
        logger.warn({ runId: run._id, held, shortfall }, 'run hold had lapsed; held again what the balance covers');
        return;
      }
      seen = await runs.get(run._id);
    }
    throw new Error(`run ${run._id}: its budget moved ${SHRINK_ROUNDS} times while shrinking it`);
  }

  /**
   * Reserves, under the run's hold id, the whole rows of what the run still held that the
   * available balance covers; answers what stands (a standing hold of another replica's retry
   * answers its own amount). Billing's refusal (balance or a cap) holds nothing.
   */
  private async reserveWhatFits(run: DatasetRunDocument, caller: Caller): Promise<number> {
    const { holds } = this.deps;
    const worst = run.worst_per_row_millicredits;
    const { available } = await holds.account(caller);
    const wanted = worst > 0 ? Math.min(outstandingOf(run), Math.floor(available / worst) * worst) : 0;
    if (wanted <= 0) return 0;
    const outcome = await holds.reserve({
      runId: run._id,
      payer: caller,
      amount: wanted,
      unit: worst,
      description: `enrich run ${run.steps.join('+')}`,
    });
    return 'refused' in outcome ? 0 : outcome.held;
  }
}

/** What the run still holds beyond what its counted chunks charged: its budget and its chunks in flight. */
function outstandingOf(run: DatasetRunDocument): number {
  return Math.max(0, run.reserved_millicredits - run.charged_millicredits);
}
