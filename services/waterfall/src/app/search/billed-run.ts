import {
  errors,
  failureJsonOf,
  meteringAfter,
  RdeError,
  storedAnswerOf,
  type Caller,
  type CreditHolds,
  type PaidRunKit,
  type PaidRunOutcome,
  type PaidRunRef,
} from '@rde/platform';
import type { RunRepository } from '../../store/runs';

export interface BilledRunDependencies {
  readonly runs: RunRepository;
  readonly kit: PaidRunKit;
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
 * The money of one waterfall run, shared by search and enrichment, through the platform's paid-run
 * kit: ONE hold for the worst case of the whole walk (or what the balance allows, so steps beyond it
 * stop as `insufficient_credits`), and ONE final settlement with one deterministic charge per billed
 * step, written in the same document update as the run's outcome; billing releases the remainder.
 */
export class BilledRuns {
  constructor(private readonly deps: BilledRunDependencies) {}

  private get holds(): CreditHolds {
    return this.deps.kit.holds;
  }

  /**
   * Holds up to `worstCase`, or says why nothing could be held: no credit available, or the caller's
   * session at its cap. A walk that cannot cost anything (every step decided without a call) holds
   * and records nothing.
   */
  /**
   * What an earlier call with this caller-minted run id answered once it ended (a repeat after the
   * caller died): undefined when there was none or it is still walking (the repeat walks again under
   * the same hold and charge ids, and only one finish is written).
   */
  async answered<T extends object>(runId: string, waterfall: string, caller: Caller): Promise<T | undefined> {
    const earlier = await this.deps.runs.get(runId);
    if (!earlier) return undefined;
    if (earlier.workspace_id !== caller.workspaceId || earlier.waterfall !== waterfall) {
      throw errors.conflict({ detail: `run_id ${runId} belongs to another call` });
    }
    return earlier.status === 'running' ? undefined : storedAnswerOf<T>(earlier);
  }

  async open(runId: string, waterfall: string, caller: Caller, worstCase: number): Promise<OpenRun | RunRefusal> {
    if (worstCase <= 0) {
      const { balance, reserved } = await this.holds.account(caller);
      return { id: runId, waterfall, caller, held: 0, balance, reserved };
    }
    const hold = await this.holds.reserveUpTo({ runId, payer: caller, amount: worstCase, description: waterfall });
    if ('refused' in hold) {
      const { reason } = hold.refused;
      if (reason === 'spending_cap_reached') throw hold.refused.error;
      return { refused: reason };
    }
    // A repeat of a call whose walk was cut short finds its run started: it walks it again.
    await this.deps.runs.startOrFind({
      _id: runId,
      waterfall,
      workspace_id: caller.workspaceId,
      user_id: caller.userId,
      session_id: caller.sessionId,
      reserved_millicredits: hold.held,
    });
    return { id: runId, waterfall, caller, held: hold.held, ...hold.account };
  }

  /**
   * Writes the outcome with its settlement, then publishes it without making the answer wait for
   * Kafka; false when another attempt of the same call finished the run first (nothing written).
   */
  async finish(run: OpenRun, outcome: PaidRunOutcome): Promise<boolean> {
    if (run.held === 0) return true; // nothing held, nothing to settle
    return this.deps.kit.finish(refOf(run), { charges: outcome.charges }, (settlement) =>
      this.deps.runs.finish(run.id, outcome, settlement),
    );
  }

  /** Finishes a run that broke on our side: nothing charged, the hold released, a public failure kept. */
  async abandon(run: OpenRun, error: unknown): Promise<void> {
    if (run.held === 0) return;
    const kept = error instanceof RdeError ? { answer_json: failureJsonOf(error) } : undefined;
    await this.deps.kit.release(refOf(run), (settlement) =>
      this.deps.runs.finish(run.id, { status: 'failed', charges: [], error: String(error), fields: kept }, settlement),
    );
  }
}

function refOf(run: OpenRun): PaidRunRef {
  return { runId: run.id, payer: run.caller, description: run.waterfall };
}

/**
 * The workspace as a finished run leaves it, before billing applies the settlement (the same rule as
 * a tool call's `_meta`).
 */
export function meteringAfterRun(run: OpenRun, charged: number) {
  return meteringAfter(run, run.held, charged);
}

/** Why a run holds nothing: no credit available, or its session at its cap (spec step outcomes). */
export interface RunRefusal {
  readonly refused: 'insufficient_credits' | 'session_limit';
}
