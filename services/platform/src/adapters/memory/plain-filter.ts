import type { Filter } from '../../ports/document-store';

/** A filter decided without mingo: a test per document that answers undefined where mingo must decide. */
export type PlainMatcher = (doc: unknown) => boolean | undefined;

type Scalar = string | number | boolean | null;
type Condition = (value: unknown, present: boolean) => boolean | undefined;

/**
 * MongoDB's semantics for the shapes the repositories send most (equality and $eq $ne $gt $gte $lt
 * $lte $in $exists on scalars, dotted paths through plain objects), compiled once per call. Building
 * a mingo Query copies its whole operator table, which dominated the embedded store's profile under
 * load. Anything else (array elements, $or, $nin, documents or arrays as values) returns undefined
 * from the compiler or the matcher, and mingo decides: one implementation of the edge cases.
 */
export function compilePlainFilter(filter: Filter): PlainMatcher | undefined {
  const tests: [string[], Condition][] = [];
  for (const [path, expected] of Object.entries(filter)) {
    if (path.startsWith('$')) return undefined;
    const condition = conditionOf(expected);
    if (!condition) return undefined;
    tests.push([path.split('.'), condition]);
  }
  return (doc) => {
    for (const [parts, condition] of tests) {
      const found = lookUp(doc, parts);
      if (found === undefined) return undefined;
      const verdict = condition(found.value, found.present);
      if (verdict !== true) return verdict;
    }
    return true;
  };
}

/**
 * The value at a path. An array on the way is entered only by a numeric index (`_outbox.0`);
 * MongoDB's matching of every element is left to mingo (undefined).
 */
function lookUp(doc: unknown, parts: string[]): { value: unknown; present: boolean } | undefined {
  let value = doc;
  for (const part of parts) {
    if (Array.isArray(value) && !/^\d+$/.test(part)) return undefined;
    if (value === null || typeof value !== 'object' || !Object.hasOwn(value, part)) {
      return { value: undefined, present: false };
    }
    value = (value as Record<string, unknown>)[part];
  }
  return { value, present: true };
}

function isScalar(value: unknown): value is Scalar {
  return value === null || ['string', 'number', 'boolean'].includes(typeof value);
}

function conditionOf(expected: unknown): Condition | undefined {
  if (isScalar(expected)) return equals(expected);
  if (expected === null || typeof expected !== 'object' || Array.isArray(expected)) return undefined;
  const conditions: Condition[] = [];
  for (const [operator, argument] of Object.entries(expected)) {
    const condition = operatorCondition(operator, argument);
    if (!condition) return undefined;
    conditions.push(condition);
  }
  if (conditions.length === 0) return undefined;
  return (value, present) => {
    for (const condition of conditions) {
      const verdict = condition(value, present);
      if (verdict !== true) return verdict;
    }
    return true;
  };
}

function operatorCondition(operator: string, argument: unknown): Condition | undefined {
  switch (operator) {
    case '$eq':
      return isScalar(argument) ? equals(argument) : undefined;
    case '$ne': {
      if (!isScalar(argument)) return undefined;
      const equal = equals(argument);
      return (value, present) => ordinary(value) && !equal(value, present);
    }
    case '$exists':
      return typeof argument === 'boolean' ? (_value, present) => present === argument : undefined;
    case '$in':
      if (!Array.isArray(argument) || !argument.every(isScalar)) return undefined;
      return (value, present) => ordinary(value) && argument.some((item: Scalar) => equals(item)(value, present));
    case '$gt':
    case '$gte':
    case '$lt':
    case '$lte':
      return typeof argument === 'number' || typeof argument === 'string' ? compare(operator, argument) : undefined;
    default:
      return undefined;
  }
}

/** A stored value this module can judge: a scalar or missing (documents and dates go to mingo). */
function ordinary(value: unknown): boolean | undefined {
  return value === undefined || isScalar(value) ? true : undefined;
}

/** Equality as MongoDB has it for scalars: `null` also matches a missing field. */
function equals(expected: Scalar): Condition {
  return (value) => {
    if (ordinary(value) === undefined) return undefined;
    return expected === null ? value === null || value === undefined : value === expected;
  };
}

/** Ordering between values of the same type only, as MongoDB compares; another type never matches. */
function compare(operator: '$gt' | '$gte' | '$lt' | '$lte', bound: number | string): Condition {
  return (value) => {
    if (ordinary(value) === undefined) return undefined;
    if (typeof value !== typeof bound) return false;
    const left = value as number | string;
    if (operator === '$gt') return left > bound;
    if (operator === '$gte') return left >= bound;
    if (operator === '$lt') return left < bound;
    return left <= bound;
  };
}

/** MongoDB's order of scalar types: missing and null first, then numbers, strings, booleans. */
const TYPE_RANK: Record<string, number> = { undefined: 0, object: 0, number: 1, string: 2, boolean: 3 };

/**
 * Sorts documents by scalar fields as MongoDB does; undefined when a sort value is not a scalar
 * (an array or a document), for mingo to sort.
 */
export function sortPlain<T>(docs: T[], sort: Readonly<Record<string, 1 | -1>>): T[] | undefined {
  const keys = Object.entries(sort).map(([path, direction]) => [path.split('.'), direction] as const);
  const rows: { doc: T; values: unknown[] }[] = [];
  for (const doc of docs) {
    const values: unknown[] = [];
    for (const [parts] of keys) {
      const found = lookUp(doc, parts);
      if (found === undefined || ordinary(found.value) === undefined) return undefined;
      values.push(found.value);
    }
    rows.push({ doc, values });
  }
  rows.sort((a, b) => {
    for (let i = 0; i < keys.length; i++) {
      const order = compareScalars(a.values[i], b.values[i]);
      if (order !== 0) return order * keys[i][1];
    }
    return 0;
  });
  return rows.map((row) => row.doc);
}

function compareScalars(left: unknown, right: unknown): number {
  const rank = TYPE_RANK[typeof left] - TYPE_RANK[typeof right];
  if (rank !== 0 || left === right || left === null || left === undefined) return Math.sign(rank);
  return (left as number | string) < (right as number | string) ? -1 : 1;
}
