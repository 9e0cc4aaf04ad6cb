import type { Caller } from '@rde/platform';
import { CHAINS, inputFor } from '../../domain/enrich/chains';
import { subjectOf, type Row } from '../../domain/enrich/subject';
import { stepName } from '../../domain/enrich/walk';
import { partialBudgetWarning, rowsCovered, type Slice } from '../../domain/runs/plan';
import type { RunRequest } from '../../domain/runs/request';
import { isToolStep, runStepName, toolArgsOf, type RunStep } from '../../domain/runs/tool-steps';
import type { BillingClient } from '../../clients';
import type { RunInput } from './run-input';

/** `estimate`, `dry_run`, `preview`: the price, the plan per step, the first rows' inputs; no hold, no vendor. */
export async function checkRun(
  billing: BillingClient,
  request: RunRequest,
  input: RunInput,
  slice: Slice,
  perStep: number[],
  caller: Caller,
) {
  const inRange = slice.end - slice.start;
  const worstPerRow = perStep.reduce((sum, price) => sum + price, 0);
  const { account } = await billing.getBalance({ recent: 0 }, { caller });
  const available = account?.available?.millicredits ?? 0;
  const covered = rowsCovered(available, worstPerRow, inRange);
  const credits = (millicredits: number) => millicredits / 1000;
  const plan = request.steps.map((step, i) => ({
    step: runStepName(step),
    chain: chainOf(step),
    rows: inRange,
    would_charge_credits_max: credits(perStep[i]! * inRange),
  }));
  const preview = input.head.slice(0, slice.end - slice.start).map((row, i) => ({
    row: slice.start + i,
    steps: Object.fromEntries(request.steps.map((step) => [runStepName(step), resolvedInputs(step, row)])),
  }));
  return {
    status: request.mode,
    rows: input.count,
    range: `${slice.start}:${slice.end}`,
    in_range: inRange,
    steps: request.steps.map(runStepName),
    ...(request.mode === 'dry_run' && { plan }),
    ...(request.mode === 'preview' && { preview }),
    _meta: {
      credits_charged: 0,
      would_charge_credits: credits(worstPerRow * inRange),
      would_call: request.steps.flatMap(chainOf).join(' → '),
      balance: credits(account?.balance?.millicredits ?? 0),
      ...(covered < inRange && { warnings: [partialBudgetWarning(covered, inRange)] }),
    },
  };
}

/** What each provider of a step would be sent for a row (null: the row lacks what it needs, a free skip). */
function resolvedInputs(step: RunStep, row: Row) {
  if (isToolStep(step)) return { [runStepName(step)]: toolArgsOf(step, row) };
  const subject = subjectOf(row);
  return Object.fromEntries(CHAINS[step].steps.map((s) => [stepName(s), inputFor(s, subject) ?? null]));
}

/** The provider steps a step walks: a capability's chain, or the one catalog method. */
function chainOf(step: RunStep): string[] {
  return isToolStep(step) ? [runStepName(step)] : CHAINS[step].steps.map(stepName);
}
