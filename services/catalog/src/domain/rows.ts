import type { JsonObject } from './parameters';

/**
 * Rows of a paid answer up to this count stay inline in full (and are persisted too); above it the
 * response carries the dataset envelope with a five-row sample instead. Recorded in decision 0008.
 */
export const INLINE_ROW_CAP = 25;
export const SAMPLE_SIZE = 5;

/** The table-like rows at `path` (an array of objects), or undefined when the answer has none there. */
export function rowsAt(answer: unknown, path: readonly string[]): JsonObject[] | undefined {
  const node = valueAt(answer, path);
  return Array.isArray(node) && node.every(isObject) ? node : undefined;
}

/** A copy of `answer` with the value at `path` replaced; the provider metadata beside it is kept. */
export function replaceAt(answer: JsonObject, path: readonly string[], value: unknown): JsonObject {
  const [key, ...rest] = path;
  const child = answer[key];
  return { ...answer, [key]: rest.length === 0 ? value : replaceAt(isObject(child) ? child : {}, rest, value) };
}

/** Whether the value at `path` is present, not empty and not false: a per-hit method's hit. */
export function isPresentAt(answer: unknown, path: readonly string[]): boolean {
  const node = valueAt(answer, path);
  if (node === undefined || node === null || node === '' || node === false) return false;
  if (Array.isArray(node)) return node.length > 0;
  return !(isObject(node) && Object.keys(node).length === 0);
}

function valueAt(answer: unknown, path: readonly string[]): unknown {
  let node: unknown = answer;
  for (const key of path) {
    if (!isObject(node)) return undefined;
    node = node[key];
  }
  return node;
}

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
