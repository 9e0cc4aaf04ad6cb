import { httpError, type Caller, type CreditHolds, type HoldRefusal, type Logger, type RdeError } from '@rde/platform';
import { rowsCovered } from '../../domain/runs/plan';
import type { SubscriptionsClient } from '../../clients';

/** A run's hold (rule 2): what it needs of the paid-run kit and billing's payment pages. */
export interface RunHoldDependencies {
  readonly holds: CreditHolds;
  readonly subscriptions: SubscriptionsClient;
  readonly logger: Logger;
}

/** What a run holds: `worstPerRow` for each of the `inRange` rows, named by its steps. */
export interface RunHoldRequest {
  readonly runId: string;
  readonly worstPerRow: number;
  readonly inRange: number;
  readonly names: readonly string[];
}

/**
 * Rule 2: holds the worst case of the rows the available credits cover. Not one row covered is
 * billing's own 402 (Reserve of one row's worst case, refused); caps refuse the same way.
 */
export async function holdRun(deps: RunHoldDependencies, request: RunHoldRequest, caller: Caller): Promise<number> {
  const { runId, worstPerRow, inRange, names } = request;
  if (inRange === 0 || worstPerRow === 0) return inRange;
  const { holds } = deps;
  const { available } = await holds.account(caller);
  const covered = Math.max(1, rowsCovered(available, worstPerRow, inRange));
  const outcome = await holds.reserve({
    runId,
    payer: caller,
    amount: covered * worstPerRow,
    description: `enrich run ${names.join('+')}`,
  });
  if ('refused' in outcome) throw await withCheckout(deps, outcome.refused, worstPerRow * inRange - available, caller);
  return covered;
}

/**
 * Rule 2's 402 for want of credits carries `checkout_url` when payments are configured (decision
 * 0046): billing's page buying what the whole run needs beyond the balance. A cap's refusal does
 * not (credits would not lift it), and a page that cannot be had leaves the 402 as billing gave it.
 */
async function withCheckout(
  deps: RunHoldDependencies,
  refusal: HoldRefusal,
  needed: number,
  caller: Caller,
): Promise<RdeError> {
  const { error } = refusal;
  if (refusal.reason !== 'insufficient_credits') return error;
  try {
    const { url } = await deps.subscriptions.shortfallCheckout({ needed: { millicredits: needed } }, { caller });
    return url ? httpError(402, { ...error.body, checkout_url: url }) : error;
  } catch (lookup) {
    deps.logger.warn({ err: lookup }, 'no checkout page for a run refused for want of credits');
    return error;
  }
}
