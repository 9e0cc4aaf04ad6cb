import { leaseHeartbeat, type Caller, type Clock, type Logger } from '@rde/platform';
import { resolveValue } from '../domain/references';
import { ENDED_STEP_STATUSES, endStatusOf, type RunRecord, type StepState } from '../domain/run';
import type { WorkflowRunsRepository } from '../store/runs';
import type { WorkflowsRepository } from '../store/workflows';
import { ClaimLost, type RunStep } from './run-step';

export interface WorkRunDependencies {
  readonly runs: WorkflowRunsRepository;
  readonly workflows: WorkflowsRepository;
  readonly step: RunStep;
  readonly clock: Clock;
  readonly logger: Logger;
  /** This replica's name on the runs it claims, and how long a claim lasts unrenewed. */
  readonly owner: string;
  readonly leaseMs: number;
}

/**
 * Works one run on this replica (decision 0074): claims it (queued, or running under a lapsed
 * claim), renews the claim while it works, and walks the pinned version's steps from the first one
 * not ended, each stored as the next begins (one write a step). Between steps it honours a cancel; the run ends
 * with the first failing step (unless `on_error: continue`), the steps after it `skipped`.
 */
export class WorkRun {
  constructor(private readonly deps: WorkRunDependencies) {}

  async work(runId: string): Promise<void> {
    const { runs, owner, leaseMs, clock } = this.deps;
    const run = await runs.claim(runId, owner, clock.now(), leaseMs);
    if (!run) return;
    const stopHeartbeat = leaseHeartbeat(
      leaseMs,
      () => runs.renew(runId, owner, clock.now() + leaseMs),
      (error) => this.deps.logger.warn({ err: error, runId }, 'could not renew a run claim'),
    );
    try {
      await this.walk(run);
    } catch (error) {
      if (!(error instanceof ClaimLost)) throw error;
      this.deps.logger.warn({ runId }, 'workflow run taken over by another replica; this one stops');
    } finally {
      stopHeartbeat();
    }
  }

  private async walk(run: RunRecord): Promise<void> {
    const version = await this.deps.workflows.findVersion(run.workflowId, run.version);
    if (!version) {
      const error = { code: 'version_missing', message: `version ${run.version} of the workflow is gone` };
      await this.finish(run, [...run.steps], { status: 'failed', error }, undefined);
      return;
    }
    const { definition } = version;
    const steps: StepState[] = [...run.steps];
    const outputs = new Map(steps.filter((step) => step.output !== undefined).map((step) => [step.id, step.output]));
    const scope = { input: run.input, runId: run.id, outputs };
    let stopped: 'skipped' | 'cancelled' | undefined;
    for (const [index, step] of definition.steps.entries()) {
      if (ENDED_STEP_STATUSES.has(steps[index]!.status)) continue; // done before a take-over
      if (!stopped && (await this.begin(run.id, steps, index)) === 'cancel_requested') stopped = 'cancelled';
      if (stopped) {
        steps[index] = { ...steps[index]!, status: stopped };
        continue;
      }
      const save = (state: StepState) => {
        steps[index] = state;
        return this.deps.runs.saveSteps(run.id, this.deps.owner, steps);
      };
      const ended = await this.deps.step.run(step, steps[index]!, {
        runId: run.id,
        mode: run.mode,
        caller: payerOf(run),
        scope,
        save,
      });
      // Stored with the next step's beginning, or the run's end.
      steps[index] = ended;
      if (ended.output !== undefined) outputs.set(step.id, ended.output);
      if (ended.status === 'failed' && !ended.continued) stopped = 'skipped';
    }
    await this.finish(run, steps, endStatusOf(steps), definition.output && resolveValue(definition.output, scope));
  }

  /**
   * Stores the steps with step `index` running (and the one before it as it ended): one write a
   * step. Nothing is written when a cancel was asked; the run stops there.
   */
  private async begin(runId: string, steps: StepState[], index: number): Promise<'begun' | 'cancel_requested'> {
    const state = steps[index]!;
    const running: StepState[] = steps.with(index, {
      ...state,
      status: 'running',
      startedAt: state.startedAt ?? this.deps.clock.now(),
    });
    const begun = await this.deps.runs.beginStep(runId, this.deps.owner, running);
    if (begun === 'lost') throw new ClaimLost(runId);
    if (begun === 'begun') steps[index] = running[index]!;
    return begun;
  }

  private async finish(
    run: RunRecord,
    steps: StepState[],
    end: Pick<RunRecord, 'status' | 'error'>,
    output: unknown,
  ): Promise<void> {
    const endedAt = this.deps.clock.now();
    if (!(await this.deps.runs.finish(run.id, this.deps.owner, { ...end, steps, endedAt, output })))
      throw new ClaimLost(run.id);
  }
}

/**
 * Whom a run's steps act for: its workspace with no user and no session, so only the workspace's
 * cap applies (spec "Limits"; decisions 0041, 0059), and the run's id on every charge's ledger row.
 */
function payerOf(run: RunRecord): Caller {
  return {
    workspaceId: run.workspaceId,
    userId: '',
    role: '',
    keyId: '',
    sessionId: '',
    requestId: run.id,
    workflowRunId: run.id,
  };
}
