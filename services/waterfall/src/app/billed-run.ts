import {
  finalSettlementEvent,
  RdeError,
  type Caller,
  type Clock,
  type Logger,
  type PaidRunOutcome,
} from '@rde/platform';
import type { WaterfallClients } from '../clients';
import { settlementIdOf } from '../domain/ids';
import type { RunCharge, RunRepository } from '../store/runs';

export interface BilledRunDependencies {
  readonly runs: RunRepository;
  readonly clients: WaterfallClients;
  readonly clock: Clock;
  readonly logger: Logger;
  /** How long a run's hold lives before billing's reaper may release it. */
  readonly holdTtlMs: number;
  /** Publishes a finished run's settlement from its outbox now (the relay's poll is the safety net). */
  readonly publishSettlement: (runId: string) => Promise<unknown>;
}

/** A run holding credits: its id (= hold id), what it holds, and the account as the hold left it. */
export interface OpenRun {
  readonly id: string;
  /** The waterfall's name, e.g. `people_search`. */
  readonly waterfall: string;
  readonly caller: Caller;
  /** Millicredits actually held: the worst case, or less when the balance could not cover it. */
  readonly held: number;
  /** The workspace's balance and holds (this one included) right after the hold. */
  readonly balance: number;
  readonly reserved: number;
}

/**
 * The money of one waterfall run, shared by search and enrichment: ONE hold for the worst case of
 * the whole walk (or what the balance allows, so steps beyond it stop as `insufficient_credits`),
 * and ONE final settlement with one deterministic charge per billed step, written in the same
 * document update as the run's outcome; billing releases the remainder.
 */
export class BilledRuns {
  constructor(private readonly deps: BilledRunDependencies) {}

  /**
   * Holds up to `worstCase`, or says why nothing could be held: no credit available, or the caller's
   * session at its cap. A walk that cannot cost anything (every step decided without a call) holds
   * and records nothing.
   */
  async open(runId: string, waterfall: string, caller: Caller, worstCase: number): Promise<OpenRun | RunRefusal> {
    if (worstCase <= 0) return this.unbilled(runId, waterfall, caller);
    const hold = await this.reserve(runId, waterfall, caller, worstCase);
    if ('refused' in hold) return hold;
    await this.deps.runs.start({
      _id: runId,
      waterfall,
      workspace_id: caller.workspaceId,
      user_id: caller.userId,
      session_id: caller.sessionId,
      reserved_millicredits: hold.held,
    });
    return { id: runId, waterfall, caller, ...hold };
  }

  private async unbilled(runId: string, waterfall: string, caller: Caller): Promise<OpenRun> {
    const { account } = await this.deps.clients.billing.getBalance({ recent: 0 }, { caller });
    return {
      id: runId,
      waterfall,
      caller,
      held: 0,
      balance: account?.balance?.millicredits ?? 0,
      reserved: account?.reserved?.millicredits ?? 0,
    };
  }

  /** Writes the outcome with its settlement, then publishes it without making the answer wait for Kafka. */
  async finish(run: OpenRun, outcome: PaidRunOutcome): Promise<void> {
    if (run.held === 0) return; // nothing held, nothing to settle
    const event = finalSettlementEvent({
      settlementId: settlementIdOf(run.id),
      description: run.waterfall,
      runId: run.id,
      workspaceId: run.caller.workspaceId,
      userId: run.caller.userId,
      sessionId: run.caller.sessionId,
      charges: outcome.charges,
      createdAtMs: this.deps.clock.now(),
    });
    if (!(await this.deps.runs.finish(run.id, outcome, event))) {
      this.deps.logger.error({ runId: run.id }, 'waterfall run finished twice; the second outcome was not written');
      return;
    }
    void this.deps
      .publishSettlement(run.id)
      .catch((error: unknown) => this.deps.logger.warn({ err: error, runId: run.id }, 'settlement left for the relay'));
  }

  /** Finishes a run that broke on our side: nothing charged, the hold released. */
  async abandon(run: OpenRun, error: unknown): Promise<void> {
    await this.finish(run, { status: 'failed', charges: [], error: String(error) }).catch((writeError: unknown) =>
      this.deps.logger.error({ err: writeError, runId: run.id }, 'could not record the failed run'),
    );
  }

  private async reserve(runId: string, waterfall: string, caller: Caller, amount: number) {
    try {
      return await this.reserveExactly(runId, waterfall, caller, amount);
    } catch (error) {
      if (refusalOf(error) === 'session_limit') return { refused: 'session_limit' } as const;
      const available = availableOf(error);
      if (available === undefined) throw error;
      if (available <= 0) return { refused: 'insufficient_credits' } as const;
      return this.reserveExactly(runId, waterfall, caller, Math.min(available, amount));
    }
  }

  private async reserveExactly(runId: string, waterfall: string, caller: Caller, amount: number) {
    const { account } = await this.deps.clients.billing.reserve(
      { holdId: runId, runId, amount: { millicredits: amount }, ttlMs: this.deps.holdTtlMs, description: waterfall },
      { caller },
    );
    return {
      held: amount,
      balance: account?.balance?.millicredits ?? 0,
      reserved: account?.reserved?.millicredits ?? 0,
    };
  }
}

/**
 * The workspace as a finished run leaves it, before billing applies the settlement (the same rule as
 * a tool call's `_meta`): the run's own hold is over, so `reserved` is the workspace's other holds,
 * the provisional balance is the balance less those holds and this run's charges, and a run that
 * charged nothing with no other hold open is settled.
 */
export function meteringAfterRun(run: OpenRun, charged: number) {
  const otherHolds = Math.max(0, run.reserved - run.held);
  return {
    balance: run.balance - otherHolds - charged,
    reserved: otherHolds,
    settled: charged === 0 && otherHolds === 0,
  };
}

/** Sum of a run's charges. */
export function totalOf(charges: readonly RunCharge[]): number {
  return charges.reduce((sum, charge) => sum + charge.millicredits, 0);
}

/** Why a run holds nothing: no credit available, or its session at its cap (spec step outcomes). */
export interface RunRefusal {
  readonly refused: 'insufficient_credits' | 'session_limit';
}

/** The `error` of billing's 402 refusing a hold, if that is what `error` is. */
function refusalOf(error: unknown): unknown {
  return error instanceof RdeError && error.httpStatus === 402 ? error.body.error : undefined;
}

/** Billing's 402 `insufficient_credits` says what is available (in credits): the millicredits to hold instead. */
function availableOf(error: unknown): number | undefined {
  if (!(error instanceof RdeError) || refusalOf(error) !== 'insufficient_credits') return undefined;
  const available = error.body.available;
  return typeof available === 'number' ? Math.floor(available * 1000) : undefined;
}
