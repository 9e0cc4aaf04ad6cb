import { conditionProblems } from './conditions';
import { LIMITS, type Definition, type Step } from './definition';
import { InputSchemaCheck } from './input-schema';
import { pointer } from './pointer';
import type { Problem } from './problems';
import { isObject, parseReference, referencesIn, type Reference } from './references';
import { StepInputCheck } from './step-input';
import { USES_HELP } from './uses';

/** The input schema of each `uses` in the definition; absent = it names nothing a step can call. */
export type StepSchemas = ReadonlyMap<string, Record<string, unknown> | undefined>;

/**
 * Lint step 2, the semantic rules (decision 0073), on a definition that fits the fixed schema:
 * unique step ids; references well formed and naming the input, the run, an earlier step, or (in a
 * `for_each` step) its item; every `uses` known; `with` a valid call of it; `for_each` bounded;
 * conditions data-only; the input schema secure. Every problem found is reported, in document order.
 */
export class SemanticLint {
  private readonly inputSchemas = new InputSchemaCheck();
  private readonly stepInputs = new StepInputCheck();

  problems(definition: Definition, stepSchemas: StepSchemas): Problem[] {
    const problems: Problem[] = [];
    if (definition.input) {
      for (const found of this.inputSchemas.problems(definition.input.schema)) {
        problems.push({ path: `/input/schema${found.pointer}`, code: 'invalid_input_schema', message: found.message });
      }
    }
    const seen = new Set<string>();
    definition.steps.forEach((step, index) => {
      if (seen.has(step.id)) {
        problems.push({
          path: pointer('steps', index, 'id'),
          code: 'duplicate_step_id',
          message: `step id '${step.id}' is used by an earlier step`,
        });
      }
      problems.push(...this.stepProblems(step, index, seen, stepSchemas));
      seen.add(step.id);
    });
    const allSteps = new Set(definition.steps.map((step) => step.id));
    problems.push(...referenceProblems(definition.output, pointer('output'), { earlier: allSteps, item: false }));
    return problems;
  }

  private stepProblems(step: Step, index: number, earlier: ReadonlySet<string>, stepSchemas: StepSchemas): Problem[] {
    const at = (...path: (string | number)[]) => pointer('steps', index, ...path);
    const scope = { earlier, item: step.for_each !== undefined };
    const problems = [
      ...referenceProblems(step.with, at('with'), scope),
      ...referenceProblems(step.if, at('if'), { ...scope, item: false }),
      ...referenceProblems(step.for_each?.items, at('for_each', 'items'), { earlier, item: false }),
    ];
    if (step.if !== undefined) {
      for (const found of conditionProblems(step.if)) {
        problems.push({ path: at('if') + found.pointer, code: 'invalid_condition', message: found.message });
      }
    }
    if (step.for_each) problems.push(...forEachProblems(step.for_each, at('for_each')));
    const schema = stepSchemas.get(step.uses);
    if (!schema) {
      problems.push({
        path: at('uses'),
        code: 'unknown_uses',
        message: `'${step.uses}' is not something a step can use: ${USES_HELP}`,
      });
    } else {
      const details = this.stepInputs.details(schema, step.with ?? {});
      if (details) {
        problems.push({
          path: at('with'),
          code: 'invalid_payload',
          message: payloadMessage(step.uses, details),
          details,
        });
      }
    }
    return problems;
  }
}

interface ReferenceScope {
  /** The step ids a reference may name (the earlier steps; every step for `output`). */
  readonly earlier: ReadonlySet<string>;
  /** Whether `{{item.…}}` is allowed (inside a `for_each` step's `with`). */
  readonly item: boolean;
}

/** Every reference in every string of the value, each checked; depth is bounded by the shape check. */
function referenceProblems(value: unknown, at: string, scope: ReferenceScope): Problem[] {
  if (typeof value === 'string') {
    return referencesIn(value).flatMap((text) => referenceProblem(text, at, scope) ?? []);
  }
  if (Array.isArray(value)) return value.flatMap((entry, i) => referenceProblems(entry, at + pointer(i), scope));
  if (isObject(value)) {
    return Object.entries(value).flatMap(([key, entry]) => referenceProblems(entry, at + pointer(key), scope));
  }
  return [];
}

function referenceProblem(text: string, at: string, scope: ReferenceScope): Problem | undefined {
  const parsed = parseReference(text);
  if (!parsed.ok) return { path: at, code: 'invalid_reference', message: parsed.reason };
  const unknown = unknownReason(parsed.reference, scope);
  return unknown ? { path: at, code: 'unknown_reference', message: `{{${text}}}: ${unknown}` } : undefined;
}

function unknownReason(reference: Reference, scope: ReferenceScope): string | undefined {
  if (reference.kind === 'item' && !scope.item) return 'item is only defined in the with of a for_each step';
  if (reference.kind === 'step' && !scope.earlier.has(reference.stepId)) {
    return `'${reference.stepId}' is not an earlier step: a step reads the input and the steps before it`;
  }
  return undefined;
}

function forEachProblems(forEach: NonNullable<Step['for_each']>, at: string): Problem[] {
  const bound = forEach.max_items ?? LIMITS.forEachItems;
  const { items } = forEach;
  if (Array.isArray(items)) {
    return items.length > bound
      ? [{ path: `${at}/items`, code: 'for_each_unbounded', message: `${items.length} items; at most ${bound}` }]
      : [];
  }
  if (typeof items === 'string' && /^\{\{[^{}]+\}\}$/.test(items)) return [];
  return [
    {
      path: `${at}/items`,
      code: 'for_each_unbounded',
      message: `items must be an array of at most ${bound} entries or one reference to an array, e.g. "{{steps.find.output.results}}" (a run refuses more than max_items, ${LIMITS.forEachItems} at most)`,
    },
  ];
}

function payloadMessage(uses: string, details: Record<string, unknown>): string {
  const parts = (['unknown', 'missing', 'missing_one_of', 'invalid'] as const)
    .filter((key) => Array.isArray(details[key]))
    .map((key) => `${key.replace(/_/g, ' ')}: ${JSON.stringify(details[key])}`);
  return `with is not a valid call of ${uses} (${parts.join('; ')}); it takes ${JSON.stringify(details.expected)}`;
}
