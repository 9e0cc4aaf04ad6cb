import { isDeepStrictEqual } from 'node:util';
import { deepCopy } from './deep-copy';

type Plain = Record<string, unknown>;

/** One field an operator changes: the deepest existing object on its path, the missing rest, the name. */
interface Target {
  readonly parent: Plain;
  readonly missing: readonly string[];
  readonly field: string;
}

/** The operators applied natively, and the ones that create the missing objects on their path. */
const NATIVE = new Set(['$set', '$inc', '$unset', '$pullAll', '$push']);
const CREATING = new Set(['$set', '$inc', '$push']);

/**
 * `$set`, `$inc`, `$unset`, `$pullAll` and `$push` (one value, or `$each` alone) on paths through
 * plain objects, applied without mingo, whose updater deep-clones its arguments and document parts
 * per call and, for `$pullAll`, compiles an `$in` query (every paid call's settlement is a `$push`
 * to its run's outbox and a `$pullAll` from it). Returns whether the document changed, or
 * undefined, before changing anything, when a path or a value is not that simple: mingo then applies
 * the operator, so its edge cases (arrays on the way, type errors, `$push` modifiers) keep one
 * implementation.
 */
export function applyPlainOperator(doc: Plain, operator: string, argument: Plain): boolean | undefined {
  if (!NATIVE.has(operator)) return undefined;
  const targets: [Target, unknown][] = [];
  for (const [path, value] of Object.entries(argument)) {
    const target = targetOf(doc, path);
    if (!target) return undefined;
    const current = target.missing.length > 0 ? undefined : target.parent[target.field];
    const operand = nativeOperand(operator, value, current);
    if (operand === FOR_MINGO) return undefined;
    targets.push([target, operand]);
  }
  let changed = false;
  for (const [target, value] of targets) changed = apply(operator, target, value) || changed;
  return changed;
}

/** An operand this module does not apply: mingo does. */
const FOR_MINGO = Symbol('for mingo');

/**
 * What the operator applies (for `$push`, the list of values to append), or FOR_MINGO for a value
 * or a current field of another type than it handles.
 */
function nativeOperand(operator: string, value: unknown, current: unknown): unknown {
  if (operator === '$inc') {
    return typeof value === 'number' && (current === undefined || typeof current === 'number') ? value : FOR_MINGO;
  }
  if (operator === '$pullAll' || operator === '$push') {
    if (current !== undefined && !Array.isArray(current)) return FOR_MINGO;
    if (operator === '$pullAll') return Array.isArray(value) ? value : FOR_MINGO;
    return pushedValues(value);
  }
  return value;
}

/** `$push`'s values: one value, or `$each`'s non-empty list; other modifiers are mingo's. */
function pushedValues(value: unknown): unknown[] | typeof FOR_MINGO {
  if (!isPlain(value) || !Object.keys(value).some((key) => key.startsWith('$'))) return [value];
  const each = value.$each;
  return Object.keys(value).length === 1 && Array.isArray(each) && each.length > 0 ? each : FOR_MINGO;
}

function apply(operator: string, target: Target, value: unknown): boolean {
  const { field } = target;
  // $set, $inc and $push create the missing objects on the way, as MongoDB does; the others find nothing there.
  const parent = target.missing.length === 0 || CREATING.has(operator) ? created(target) : undefined;
  const present = parent !== undefined && Object.hasOwn(parent, field);
  if (operator === '$unset') {
    if (present) delete parent![field];
    return present;
  }
  if (!parent) return false; // $pullAll under a missing object: nothing to pull
  const current = parent[field];
  if (operator === '$set') {
    if (present && isDeepStrictEqual(current, value)) return false;
    parent[field] = deepCopy(value);
    return true;
  }
  if (operator === '$inc') {
    parent[field] = ((current as number | undefined) ?? 0) + (value as number);
    return !present || value !== 0;
  }
  if (operator === '$push') {
    parent[field] = [...((current as unknown[] | undefined) ?? []), ...(value as unknown[]).map(deepCopy)];
    return true;
  }
  if (!Array.isArray(current)) return false;
  const kept = current.filter((item) => !(value as unknown[]).some((pulled) => isDeepStrictEqual(item, pulled)));
  parent[field] = kept;
  return kept.length !== current.length;
}

/** The deepest existing plain object on a path; undefined when something else (an array, a value) is on the way. */
function targetOf(doc: Plain, path: string): Target | undefined {
  const parts = path.split('.');
  const field = parts.pop()!;
  if (field.startsWith('$') || /^\d+$/.test(field)) return undefined;
  let parent = doc;
  for (const [index, part] of parts.entries()) {
    const next = parent[part];
    if (next === undefined) return { parent, missing: parts.slice(index), field };
    if (!isPlain(next)) return undefined;
    parent = next;
  }
  return { parent, missing: [], field };
}

function created(target: Target): Plain {
  let parent = target.parent;
  for (const part of target.missing) {
    parent[part] = {};
    parent = parent[part] as Plain;
  }
  return parent;
}

function isPlain(value: unknown): value is Plain {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && !(value instanceof Date);
}
