import type { CapRefusal } from '@rde/platform';
import type { Chain } from './chains';
import { stepName, type RowWalk } from './walk';

/** Rule 9's step detail and warning code. */
export const SPENDING_CAP_REACHED = 'spending_cap_reached';

/**
 * Rule 9: a row the spending cap left out. No provider of its chain was asked and none is
 * substituted: every step is a free `skip` with detail `spending_cap_reached`.
 */
export function cappedWalk(chain: Chain): RowWalk {
  return {
    next: chain.steps.length,
    steps: chain.steps.map((step) => ({
      step: stepName(step),
      outcome: 'skip',
      charged: 0,
      detail: SPENDING_CAP_REACHED,
    })),
    done: true,
  };
}

/** The providers a capped row would have asked, in chain order (the validator last). */
export function providersOf(chain: Chain): string[] {
  return [...new Set([...chain.steps.map((step) => step.tool), ...(chain.validator ? [chain.validator.tool] : [])])];
}

/**
 * Rule 9's one `_meta.warnings` entry: how many rows the cap left out, which providers they did not
 * ask, the cap's scope (`workspace` or `member`) and what the cap said.
 */
export function spendingCapWarning(chain: Chain, rowsAffected: number, refusal: CapRefusal): Record<string, unknown> {
  const because = refusal.detail ? ` ${refusal.detail}` : '';
  return {
    code: SPENDING_CAP_REACHED,
    rows_affected: rowsAffected,
    providers_skipped: providersOf(chain),
    cap_scope: refusal.scope,
    message: `${rowsAffected} row(s) were not enriched and cost nothing: the spending cap does not allow their worst case.${because}`,
  };
}
