import { isDeepStrictEqual } from 'node:util';
import { deepCopy } from './deep-copy';

type Plain = Record<string, unknown>;

/**
 * A stored document being updated: a shallow copy whose nested objects are copied on the first
 * write through them, so an update costs what it changes, not the whole document, and the stored
 * version stays as it was until the store swaps the draft in (a unique-index violation leaves it).
 */
export class DocumentDraft {
  readonly doc: Plain;
  /** Objects this draft made (copied or created): the ones it may change in place. */
  private readonly own = new WeakSet<object>();
  private wholeOwn = false;

  constructor(stored: Plain) {
    this.doc = { ...stored };
    this.own.add(this.doc);
  }

  /** The object at `parts`, made this draft's own (copied from the stored one, or created where missing). */
  writable(parts: readonly string[]): Plain {
    let parent = this.doc;
    for (const part of parts) {
      const next = parent[part];
      if (isPlain(next) && (this.wholeOwn || this.own.has(next))) {
        parent = next;
        continue;
      }
      const made: Plain = isPlain(next) ? { ...next } : {};
      this.own.add(made);
      parent[part] = made;
      parent = made;
    }
    return parent;
  }

  /** The whole document as this draft's own, for mingo's updater, which may change anything it walks. */
  ownAll(): Plain {
    if (!this.wholeOwn) {
      for (const [field, value] of Object.entries(this.doc)) this.doc[field] = deepCopy(value);
      this.wholeOwn = true;
    }
    return this.doc;
  }
}

/** One field an operator changes: the deepest existing object on its path, the missing rest, the name. */
interface Target {
  /** The path's objects up to the field, existing or not. */
  readonly parents: readonly string[];
  readonly parent: Plain;
  readonly missing: readonly string[];
  readonly field: string;
}

/** The operators applied natively. */
const NATIVE = new Set(['$set', '$inc', '$unset', '$pullAll', '$push']);

/**
 * `$set`, `$inc`, `$unset`, `$pullAll` and `$push` (one value, or `$each` alone) on paths through
 * plain objects, applied without mingo, whose updater deep-clones its arguments and document parts
 * per call and, for `$pullAll`, compiles an `$in` query (every paid call's settlement is a `$push`
 * to its run's outbox and a `$pullAll` from it). Returns whether the document changed, or
 * undefined, before changing anything, when a path or a value is not that simple: mingo then applies
 * the operator, so its edge cases (arrays on the way, type errors, `$push` modifiers) keep one
 * implementation.
 */
export function applyPlainOperator(draft: DocumentDraft, operator: string, argument: Plain): boolean | undefined {
  if (!NATIVE.has(operator)) return undefined;
  const targets: [Target, unknown][] = [];
  for (const [path, value] of Object.entries(argument)) {
    const target = targetOf(draft.doc, path);
    if (!target) return undefined;
    const current = target.missing.length > 0 ? undefined : target.parent[target.field];
    const operand = nativeOperand(operator, value, current);
    if (operand === FOR_MINGO) return undefined;
    targets.push([target, operand]);
  }
  let changed = false;
  for (const [target, value] of targets) changed = apply(draft, operator, target, value) || changed;
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

/** Changes the field when the operator changes it; only then is its path copied into the draft. */
function apply(draft: DocumentDraft, operator: string, target: Target, value: unknown): boolean {
  const { field } = target;
  const exists = target.missing.length === 0;
  const present = exists && Object.hasOwn(target.parent, field);
  const current = present ? target.parent[field] : undefined;
  const write = (next: unknown) => {
    draft.writable(target.parents)[field] = next;
    return true;
  };
  if (operator === '$unset') {
    if (present) delete draft.writable(target.parents)[field];
    return present;
  }
  // $set, $inc and $push create the missing objects on the way, as MongoDB does; $pullAll finds nothing there.
  if (operator === '$set') return present && isDeepStrictEqual(current, value) ? false : write(deepCopy(value));
  if (operator === '$inc')
    return present && value === 0 ? false : write(((current as number) ?? 0) + (value as number));
  if (operator === '$push')
    return write([...((current as unknown[] | undefined) ?? []), ...(value as unknown[]).map(deepCopy)]);
  if (!Array.isArray(current)) return false;
  const kept = current.filter((item) => !(value as unknown[]).some((pulled) => isDeepStrictEqual(item, pulled)));
  return kept.length !== current.length && write(kept);
}

/** The deepest existing plain object on a path; undefined when something else (an array, a value) is on the way. */
function targetOf(doc: Plain, path: string): Target | undefined {
  const parts = path.split('.');
  const field = parts.pop()!;
  if (field.startsWith('$') || /^\d+$/.test(field)) return undefined;
  let parent = doc;
  for (const [index, part] of parts.entries()) {
    const next = parent[part];
    if (next === undefined) return { parents: parts, parent, missing: parts.slice(index), field };
    if (!isPlain(next)) return undefined;
    parent = next;
  }
  return { parents: parts, parent, missing: [], field };
}

function isPlain(value: unknown): value is Plain {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && !(value instanceof Date);
}
