import { isDeepStrictEqual } from 'node:util';
import { deepCopy } from './deep-copy';

type Plain = Record<string, unknown>;

/** One field an operator changes: the deepest existing object on its path, the missing rest, the name. */
interface Target {
  readonly parent: Plain;
  readonly missing: readonly string[];
  readonly field: string;
}

/**
 * `$set`, `$inc`, `$unset` and `$pullAll` on paths through plain objects, applied without mingo,
 * whose updater deep-clones its arguments and, for `$pullAll`, compiles an `$in` query per call
 * (together about a tenth of the all-in-one profile). Returns whether the document changed, or
 * undefined, before changing anything, when a path or a value is not that simple: mingo then applies
 * the operator, so its edge cases (arrays on the way, type errors) keep one implementation.
 */
export function applyPlainOperator(doc: Plain, operator: string, argument: Plain): boolean | undefined {
  const targets: [Target, unknown][] = [];
  for (const [path, value] of Object.entries(argument)) {
    const target = targetOf(doc, path);
    if (!target) return undefined;
    const current = target.missing.length > 0 ? undefined : target.parent[target.field];
    if (operator === '$inc' && (typeof value !== 'number' || (current !== undefined && typeof current !== 'number'))) {
      return undefined;
    }
    if (operator === '$pullAll' && (!Array.isArray(value) || (current !== undefined && !Array.isArray(current)))) {
      return undefined;
    }
    if (!['$set', '$inc', '$unset', '$pullAll'].includes(operator)) return undefined;
    targets.push([target, value]);
  }
  let changed = false;
  for (const [target, value] of targets) changed = apply(operator, target, value) || changed;
  return changed;
}

function apply(operator: string, target: Target, value: unknown): boolean {
  const { field } = target;
  // $set and $inc create the missing objects on the way, as MongoDB does; the others find nothing there.
  const parent =
    target.missing.length === 0 || operator === '$set' || operator === '$inc' ? created(target) : undefined;
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
