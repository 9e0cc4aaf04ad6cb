import { chargedOf, wouldChargeOf, type RunRecord, type StepState } from '../domain/run';

const iso = (ms: number | undefined) => (ms === undefined ? null : new Date(ms).toISOString());
const credits = (millicredits: number) => millicredits / 1000;

/**
 * A run as the public routes show it (decision 0074). Money in credits: `charged_credits` is what
 * the run's steps were billed (the ledger's rows with this `workflow_run_id` sum to it);
 * `would_charge_credits` is a dry run's estimate. A listed run leaves out the steps' outputs.
 */
export function runView(run: RunRecord, withOutputs = true) {
  const steps = run.steps.map((step) => stepView(step, withOutputs));
  const charged = run.steps.reduce((sum, step) => sum + chargedOf(step), 0);
  const wouldCharge = run.steps.reduce((sum, step) => sum + wouldChargeOf(step), 0);
  const failedStep = run.steps.find((step) => step.status === 'failed' && !step.continued);
  return {
    id: run.id,
    workflow_id: run.workflowId,
    workflow_name: run.workflowName,
    version: run.version,
    status: run.status,
    mode: run.mode,
    source: run.source,
    cancel_requested: run.cancelRequested,
    created_at: iso(run.createdAt),
    started_at: iso(run.startedAt),
    ended_at: iso(run.endedAt),
    duration_ms: run.startedAt !== undefined && run.endedAt !== undefined ? run.endedAt - run.startedAt : null,
    charged_credits: credits(charged),
    ...(run.mode === 'dry_run' && { would_charge_credits: credits(wouldCharge) }),
    error: run.error ? { ...run.error, step: failedStep?.id ?? null } : null,
    ...(withOutputs && { input: run.input, output: run.output ?? null }),
    steps,
  };
}

function stepView(step: StepState, withOutput: boolean) {
  return {
    id: step.id,
    uses: step.uses,
    status: step.status,
    started_at: iso(step.startedAt),
    ended_at: iso(step.endedAt),
    duration_ms: step.startedAt !== undefined && step.endedAt !== undefined ? step.endedAt - step.startedAt : null,
    items: step.items.length,
    charged_credits: credits(chargedOf(step)),
    would_charge_credits: credits(wouldChargeOf(step)),
    error: step.error ?? null,
    ...(withOutput && { output: step.output ?? null }),
  };
}
