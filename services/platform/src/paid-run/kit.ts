import type { Clock } from '../clock';
import type { Logger } from '../logger';
import type { NewOutboxEvent } from '../outbox';
import type { PaidRunCharge } from './charges';
import { settlementIdOf } from './charges';
import type { CreditHolds } from './holds';
import type { Payer } from './payer';
import { settlementEvent } from './settlement';

export interface PaidRunKitDependencies {
  readonly holds: CreditHolds;
  readonly clock: Clock;
  readonly logger: Logger;
  /** Publishes a run's outbox now (the outbox relay's poll is the safety net). */
  readonly publish: (runId: string) => Promise<unknown> | void;
}

/** A run whose money the kit settles: hold id = run id, the payer, and its ledger line. */
export interface PaidRunRef {
  readonly runId: string;
  readonly payer: Payer;
  readonly description: string;
}

/** A settlement to write: the run's charges, and whether it ends the hold (releasing the rest). */
export interface SettlementOrder {
  readonly charges: readonly PaidRunCharge[];
  /** False leaves the hold standing for work still open (a provider job); default true. */
  readonly final?: boolean;
  /** A settlement other than the run's one final settlement (a provider job's), by number. */
  readonly n?: number;
  /** The hold it settles against when not the run's own. */
  readonly holdId?: string;
}

/**
 * Writes the run's outcome with the settlement in ONE guarded store update (the outbox): true when
 * this write ended the run, false when another attempt already had (nothing written then).
 */
export type WriteWithSettlement = (settlement: NewOutboxEvent) => Promise<boolean>;

/**
 * The money flow of a paid unit of work against billing (decision 0059): a hold opened through
 * `holds` (refusals typed), charges under deterministic ids, and one finish that writes the
 * settlement in the same store update as the run's end, then publishes it without waiting for Kafka.
 * A run that finishes with no charge releases its hold; one nobody finishes is released by billing's
 * reaper when the hold lapses, or finished by whichever replica takes it over (RunLeases).
 */
export class PaidRunKit {
  constructor(private readonly deps: PaidRunKitDependencies) {}

  get holds(): CreditHolds {
    return this.deps.holds;
  }

  /** The settlement of `run` as an outbox event (for writes the kit does not make itself). */
  settlement(run: PaidRunRef, order: SettlementOrder): NewOutboxEvent {
    return settlementEvent({
      settlementId: settlementIdOf(run.runId, order.n),
      runId: run.runId,
      workspaceId: run.payer.workspaceId,
      userId: run.payer.userId,
      sessionId: run.payer.sessionId,
      workflowRunId: run.payer.workflowRunId,
      description: run.description,
      charges: order.charges,
      final: order.final ?? true,
      ...(order.holdId !== undefined && { holdId: order.holdId }),
      createdAtMs: this.deps.clock.now(),
    });
  }

  /** Ends the run with its settlement (one write), then publishes it; false when another attempt ended it first. */
  async finish(run: PaidRunRef, order: SettlementOrder, write: WriteWithSettlement): Promise<boolean> {
    if (!(await write(this.settlement(run, order)))) {
      this.deps.logger.warn({ runId: run.runId }, 'paid run already finished by another attempt; nothing written');
      return false;
    }
    this.publish(run.runId);
    return true;
  }

  /**
   * Ends a run that broke on our side: nothing charged, the hold released. If even that write fails,
   * billing's reaper releases the hold when it lapses; true unless another attempt ended the run first.
   */
  async release(run: PaidRunRef, write: WriteWithSettlement): Promise<boolean> {
    return this.finish(run, { charges: [] }, write).catch((error: unknown) => {
      this.deps.logger.error({ err: error, runId: run.runId }, 'could not record the failed paid run');
      return true;
    });
  }

  /** Publishes the run's outbox now; a failure leaves it to the relay's poll. */
  publish(runId: string): void {
    void Promise.resolve()
      .then(() => this.deps.publish(runId))
      .catch((error: unknown) => this.deps.logger.warn({ err: error, runId }, 'settlement left for the outbox relay'));
  }
}
