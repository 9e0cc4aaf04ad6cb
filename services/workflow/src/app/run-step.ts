import { RdeError, type Caller, type Clock } from '@rde/platform';
import type { StepCallResult, StepCalls } from '../clients/steps';
import type { Step } from '../domain/definition';
import { paidCallIdOf, type ItemResult, type RunMode, type StepError, type StepState } from '../domain/run';
import { refusalError, stopOf } from '../domain/step-error';
import { planStep } from '../domain/step-plan';
import type { Scope } from '../domain/references';
import { parseUses } from '../domain/uses';

/** What working one step needs: the run's identity, mode and payer, and where each item's result goes. */
export interface StepWork {
  readonly runId: string;
  readonly mode: RunMode;
  readonly caller: Caller;
  readonly scope: Scope;
  /** Stores the step as it is now (after each item); false when the run was taken by another replica. */
  readonly save: (step: StepState) => Promise<boolean>;
}

/** The run lost its claim mid-step: stop without writing anything more. */
export class ClaimLost extends Error {}

/**
 * Works one step: plans it (skip, refuse, or one call per item), makes the calls in order after
 * the items already stored (a resumed step does not repeat them), stores each item's result
 * before the next call, and ends the step succeeded or failed with a clear error. A call repeated
 * after a crash (its result not stored yet) carries the same paid-call id, so it is billed once.
 */
export class RunStep {
  constructor(
    private readonly calls: StepCalls,
    private readonly clock: Clock,
  ) {}

  async run(step: Step, state: StepState, work: StepWork): Promise<StepState> {
    const started: StepState = { ...state, status: 'running', startedAt: state.startedAt ?? this.clock.now() };
    const plan = planStep(step, work.scope, work.mode);
    if (plan.kind === 'skip') return this.ended(started, 'skipped');
    if (plan.kind === 'refuse') return this.failed(started, step, plan.error);
    const uses = parseUses(step.uses);
    if (uses.kind === 'malformed') return this.failed(started, step, { code: 'unknown_uses', message: step.uses });
    let current = started;
    for (let index = current.items.length; index < plan.inputs.length; index += 1) {
      const called = await this.callOnce(work, step, { uses, index, input: plan.inputs[index]! });
      if ('error' in called) return this.failed(current, step, called.error, called.result);
      current = { ...current, items: [...current.items, itemOf(called.result)] };
      const stop = stopOf(step.uses, called.result.output);
      if (stop) return this.failed(current, step, stop);
      // The last item's result is stored with the step's end (by the caller): one write fewer a step.
      if (index + 1 < plan.inputs.length) await this.saved(current, work);
    }
    const outputs = current.items.map((item) => item.output);
    return this.ended({ ...current, output: step.for_each ? outputs : outputs[0] }, 'succeeded');
  }

  private async callOnce(
    work: StepWork,
    step: Step,
    item: {
      uses: Exclude<ReturnType<typeof parseUses>, { kind: 'malformed' }>;
      index: number;
      input: Record<string, unknown>;
    },
  ): Promise<{ result: StepCallResult } | { error: StepError; result?: StepCallResult }> {
    try {
      const result = await this.calls.call({
        uses: item.uses,
        name: step.uses,
        input: item.input,
        dryRun: work.mode === 'dry_run',
        callId: paidCallIdOf(work.runId, step.id, item.index),
        caller: work.caller,
      });
      return { result };
    } catch (error) {
      if (error instanceof RdeError) return { error: refusalError(error.httpStatus, error.body) };
      return { error: { code: 'call_failed', message: (error as Error).message } };
    }
  }

  private async saved(step: StepState, work: StepWork): Promise<void> {
    if (!(await work.save(step))) throw new ClaimLost(`run ${work.runId} was taken over`);
  }

  private failed(state: StepState, step: Step, error: StepError, result?: StepCallResult): StepState {
    const items = result ? [...state.items, itemOf(result)] : state.items;
    return {
      ...this.ended({ ...state, items }, 'failed'),
      error,
      ...(step.on_error === 'continue' && { continued: true }),
    };
  }

  private ended(state: StepState, status: StepState['status']): StepState {
    return { ...state, status, endedAt: this.clock.now() };
  }
}

function itemOf(result: StepCallResult): ItemResult {
  return {
    output: result.output,
    chargedMillicredits: result.chargedMillicredits,
    wouldChargeMillicredits: result.wouldChargeMillicredits,
  };
}
