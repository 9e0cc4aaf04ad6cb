import { LIMITS } from './definition';
import { pointer } from './pointer';
import { isObject } from './references';

/**
 * Step conditions (`if`) are data, never code (decision 0073): JSON Logic's comparison and boolean
 * operators only, over literals and reference strings, with no `var`, no `method` and no custom
 * operators, and capped in size so checking and evaluating one is bounded.
 */
export const CONDITION_OPERATORS = ['==', '!=', '<', '<=', '>', '>=', 'and', 'or', '!', 'in'] as const;
const OPERATORS = new Set<string>(CONDITION_OPERATORS);

/** Why a condition is refused, at a JSON Pointer below the `if`; empty when it is well formed. */
export function conditionProblems(condition: unknown): { pointer: string; message: string }[] {
  const problems: { pointer: string; message: string }[] = [];
  let nodes = 0;
  const visit = (node: unknown, at: string, depth: number): void => {
    if ((nodes += 1) > LIMITS.conditionNodes) return;
    if (depth > LIMITS.conditionDepth) {
      problems.push({ pointer: at, message: `nested deeper than ${LIMITS.conditionDepth}` });
      return;
    }
    if (Array.isArray(node)) return node.forEach((entry, i) => visit(entry, `${at}${pointer(i)}`, depth + 1));
    if (!isObject(node)) return;
    const keys = Object.keys(node);
    const operator = keys[0];
    if (keys.length !== 1 || operator === undefined || !OPERATORS.has(operator)) {
      problems.push({
        pointer: at,
        message: `a condition is one operator of ${CONDITION_OPERATORS.join(', ')} with its operands, e.g. {"==": ["{{input.country}}", "DE"]}`,
      });
      return;
    }
    visit(node[operator], `${at}${pointer(operator)}`, depth + 1);
  };
  visit(condition, '', 0);
  if (nodes > LIMITS.conditionNodes)
    problems.push({ pointer: '', message: `more than ${LIMITS.conditionNodes} nodes` });
  return problems;
}
