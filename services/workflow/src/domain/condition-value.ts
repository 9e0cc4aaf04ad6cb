import { isObject } from './references';

/**
 * Evaluates a step's `if` once its references are resolved (decision 0073: data, never code). The
 * operators are the ones lint admits; comparison follows JSON Logic's loose rules for numbers in
 * text, so `"3" > 0` holds as users of JSON Logic expect.
 */
export function conditionHolds(condition: unknown): boolean {
  return truthy(evaluate(condition));
}

function evaluate(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(evaluate);
  if (!isObject(node)) return node;
  const [operator] = Object.keys(node);
  const raw = node[operator!];
  const operands = (Array.isArray(raw) ? raw : [raw]).map(evaluate);
  const [left, right] = operands;
  switch (operator) {
    case '==':
      return looseEquals(left, right);
    case '!=':
      return !looseEquals(left, right);
    case '<':
      return Number(left) < Number(right);
    case '<=':
      return Number(left) <= Number(right);
    case '>':
      return Number(left) > Number(right);
    case '>=':
      return Number(left) >= Number(right);
    case 'and':
      return operands.every(truthy);
    case 'or':
      return operands.some(truthy);
    case '!':
      return !truthy(left);
    case 'in':
      return Array.isArray(right)
        ? right.some((entry) => looseEquals(entry, left))
        : String(right).includes(String(left));
    default:
      return false;
  }
}

function looseEquals(left: unknown, right: unknown): boolean {
  if (typeof left === 'number' || typeof right === 'number') return Number(left) === Number(right);
  return JSON.stringify(left) === JSON.stringify(right);
}

/** JSON Logic's truth: an empty array, 0, "", null and absent are false. */
function truthy(value: unknown): boolean {
  return Array.isArray(value) ? value.length > 0 : Boolean(value);
}
