import { LIMITS, type Step } from './definition';
import { conditionHolds } from './condition-value';
import { resolveValue, type Scope } from './references';
import type { RunMode, StepError } from './run';
import { ENRICH_RUN } from './uses';

/** What one step will do: skip, fail before any call, or make one call per item with these inputs. */
export type StepPlan =
  | { readonly kind: 'skip' }
  | { readonly kind: 'refuse'; readonly error: StepError }
  | { readonly kind: 'calls'; readonly inputs: readonly Record<string, unknown>[] };

/** A smoke test's searches find one person (decision 0074). */
const SMOKE_SEARCH_LIMIT = 1;

/**
 * Plans a step against what the run knows so far: its `if` (false: skipped), its `for_each` items
 * (more than `max_items` fails the step rather than cutting the list; a smoke test takes the first
 * item only), and its `with` resolved per item.
 */
export function planStep(step: Step, scope: Scope, mode: RunMode): StepPlan {
  if (step.if !== undefined && !conditionHolds(resolveValue(step.if, scope))) return { kind: 'skip' };
  const items = itemsOf(step, scope);
  if ('error' in items) return { kind: 'refuse', error: items.error };
  const chosen = mode === 'smoke_test' ? items.list.slice(0, 1) : items.list;
  const inputs = chosen.map((item) => smokeLimited(step, mode, resolveValue(step.with ?? {}, { ...scope, item })));
  return { kind: 'calls', inputs: inputs as Record<string, unknown>[] };
}

function itemsOf(step: Step, scope: Scope): { list: unknown[] } | { error: StepError } {
  if (!step.for_each) return { list: [undefined] };
  const items = resolveValue(step.for_each.items, scope);
  if (!Array.isArray(items)) {
    return { error: { code: 'invalid_items', message: `for_each.items of step ${step.id} is not a list` } };
  }
  const max = Math.min(step.for_each.max_items ?? LIMITS.forEachItems, LIMITS.forEachItems);
  if (items.length > max) {
    return {
      error: {
        code: 'too_many_items',
        message: `for_each of step ${step.id} has ${items.length} items, more than its max_items ${max}`,
      },
    };
  }
  return { list: items };
}

function smokeLimited(step: Step, mode: RunMode, input: unknown): unknown {
  if (mode !== 'smoke_test') return input;
  const given = input as Record<string, unknown>;
  if (step.uses === 'search.people_search') return { ...given, limit: SMOKE_SEARCH_LIMIT };
  if (step.uses === ENRICH_RUN) return { ...given, range: firstRowOf(given.range) };
  return input;
}

/** A smoke test's enrichment run walks one row: the first of its range (decision 0088). */
function firstRowOf(range: unknown): string {
  const start = typeof range === 'string' ? Number(range.split(':')[0] || 0) : 0;
  return `${start}:${start + 1}`;
}
