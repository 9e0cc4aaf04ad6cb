/**
 * References in a definition's strings (decision 0073): `{{input.<path>}}`, `{{steps.<id>.output.<path>}}`,
 * `{{run.id}}` and, inside a `for_each` step, `{{item.<path>}}`. Nothing is evaluated as code: a
 * reference is a dotted path, resolved over own properties only.
 */

/** A `{{ … }}` in a string; the inside is checked by `parseReference`. */
const REFERENCE = /\{\{([^{}]{0,300})\}\}/g;
/** One path segment: a name or an array index. */
const SEGMENT = /^(?:[A-Za-z_$][A-Za-z0-9_$-]*|0|[1-9][0-9]{0,8})$/;
/** Segments that would reach an object's prototype instead of its data. */
const FORBIDDEN_SEGMENTS = new Set(['__proto__', 'constructor', 'prototype']);

export type Reference =
  | { readonly kind: 'input'; readonly path: readonly string[] }
  | { readonly kind: 'step'; readonly stepId: string; readonly path: readonly string[] }
  | { readonly kind: 'run_id' }
  | { readonly kind: 'item'; readonly path: readonly string[] };

export type Parsed = { ok: true; reference: Reference } | { ok: false; reason: string };

/** Every `{{ … }}` text of a string, as written (whitespace trimmed). */
export function referencesIn(text: string): string[] {
  return [...text.matchAll(REFERENCE)].map((match) => match[1]!.trim());
}

/** Parses one reference's text (`steps.find.output.results`), or says why it is not one. */
export function parseReference(text: string): Parsed {
  const segments = text.split('.');
  const bad = segments.find((segment) => !SEGMENT.test(segment));
  if (bad !== undefined) return { ok: false, reason: `'${text}' is not a dotted path of names and indexes` };
  const forbidden = segments.find((segment) => FORBIDDEN_SEGMENTS.has(segment));
  if (forbidden !== undefined) return { ok: false, reason: `'${forbidden}' may not appear in a reference` };
  const [root, ...rest] = segments;
  if (root === 'input') return { ok: true, reference: { kind: 'input', path: rest } };
  if (root === 'item') return { ok: true, reference: { kind: 'item', path: rest } };
  if (root === 'run' && rest.length === 1 && rest[0] === 'id') return { ok: true, reference: { kind: 'run_id' } };
  if (root === 'steps' && rest.length >= 2 && rest[1] === 'output') {
    return { ok: true, reference: { kind: 'step', stepId: rest[0]!, path: rest.slice(2) } };
  }
  return {
    ok: false,
    reason: `'${text}' names nothing: use input.<path>, steps.<id>.output.<path>, run.id or item.<path>`,
  };
}

/** What references resolve against while a run works a step. */
export interface Scope {
  readonly input: unknown;
  readonly runId: string;
  readonly outputs: ReadonlyMap<string, unknown>;
  readonly item?: unknown;
}

/**
 * The value a string stands for: a string that is exactly one reference becomes the referenced
 * value (any JSON type); references inside longer text are written in as text. A path that leads
 * nowhere is undefined (whole) or empty text (inside text).
 */
export function resolveString(text: string, scope: Scope): unknown {
  const whole = /^\{\{([^{}]{0,300})\}\}$/.exec(text);
  if (whole) return resolveReference(whole[1]!.trim(), scope);
  return text.replace(REFERENCE, (_, inner: string) => asText(resolveReference(inner.trim(), scope)));
}

/** Resolves every string of a JSON value (a step's `with`), leaving everything else as it is. */
export function resolveValue(value: unknown, scope: Scope): unknown {
  if (typeof value === 'string') return resolveString(value, scope);
  if (Array.isArray(value)) return value.map((entry) => resolveValue(entry, scope));
  if (isObject(value)) {
    return Object.fromEntries(Object.entries(value).map(([key, entry]) => [key, resolveValue(entry, scope)]));
  }
  return value;
}

function resolveReference(text: string, scope: Scope): unknown {
  const parsed = parseReference(text);
  if (!parsed.ok) return undefined;
  const { reference } = parsed;
  switch (reference.kind) {
    case 'run_id':
      return scope.runId;
    case 'input':
      return walk(scope.input, reference.path);
    case 'item':
      return walk(scope.item, reference.path);
    case 'step':
      return scope.outputs.has(reference.stepId)
        ? walk(scope.outputs.get(reference.stepId), reference.path)
        : undefined;
  }
}

/** Follows a path through own properties and array indexes only: never a prototype, never a getter. */
export function walk(root: unknown, path: readonly string[]): unknown {
  let current = root;
  for (const segment of path) {
    if (FORBIDDEN_SEGMENTS.has(segment)) return undefined;
    if (Array.isArray(current) && /^\d+$/.test(segment)) current = current[Number(segment)];
    else if (isObject(current) && Object.hasOwn(current, segment)) current = current[segment];
    else return undefined;
  }
  return current;
}

function asText(value: unknown): string {
  if (value === undefined || value === null) return '';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
