import Ajv, { type ErrorObject } from 'ajv';
import secureMetaSchema from 'ajv/lib/refs/json-schema-secure.json';
import isSafeRegex from 'safe-regex2';
import { pointer } from './pointer';
import { isObject } from './references';

/** A problem in a user's input schema, at a JSON Pointer inside it. */
export interface SchemaProblem {
  readonly pointer: string;
  readonly message: string;
}

/**
 * A definition's `input.schema` is run against every run's input, so it is held to Ajv's secure
 * meta-schema (no unbounded `pattern`, `format`, `uniqueItems` without limits), every regex in it
 * must be free of catastrophic backtracking (safe-regex2: star height 1), and it must compile in
 * strict mode with no remote `$ref` (decision 0073).
 */
export class InputSchemaCheck {
  private readonly ajv = new Ajv({ allErrors: true, strict: true, addUsedSchema: false });
  /** Ajv's own meta-schema is written for a lenient instance. */
  private readonly isSecure = new Ajv({ allErrors: true, strict: false }).compile(secureMetaSchema);

  problems(schema: Record<string, unknown>): SchemaProblem[] {
    if (!this.ajv.validateSchema(schema)) return this.issues(this.ajv.errors);
    const unsafe = unsafePatterns(schema, '');
    if (unsafe.length > 0) return unsafe;
    if (!this.isSecure(schema)) return this.issues(this.isSecure.errors);
    try {
      this.ajv.compile(schema);
    } catch (error) {
      return [{ pointer: '', message: (error as Error).message }];
    }
    return [];
  }

  private issues(errors: ErrorObject[] | null | undefined): SchemaProblem[] {
    // One problem per place: a meta-schema's `anyOf` otherwise answers once per branch.
    const first = new Map<string, SchemaProblem>();
    for (const error of errors ?? []) {
      if (!first.has(error.instancePath))
        first.set(error.instancePath, { pointer: error.instancePath, message: error.message ?? 'invalid' });
    }
    return [...first.values()];
  }
}

/** Every `pattern` value and `patternProperties` key that could backtrack catastrophically, or does not compile. */
function unsafePatterns(node: unknown, at: string): SchemaProblem[] {
  if (Array.isArray(node)) return node.flatMap((entry, index) => unsafePatterns(entry, `${at}${pointer(index)}`));
  if (!isObject(node)) return [];
  const found: SchemaProblem[] = [];
  if (typeof node.pattern === 'string' && !safe(node.pattern)) {
    found.push({ pointer: `${at}/pattern`, message: unsafeMessage(node.pattern) });
  }
  if (isObject(node.patternProperties)) {
    for (const key of Object.keys(node.patternProperties)) {
      if (!safe(key)) found.push({ pointer: `${at}/patternProperties`, message: unsafeMessage(key) });
    }
  }
  for (const [key, child] of Object.entries(node)) found.push(...unsafePatterns(child, `${at}${pointer(key)}`));
  return found;
}

function safe(pattern: string): boolean {
  try {
    return isSafeRegex(new RegExp(pattern, 'u'));
  } catch {
    return false;
  }
}

function unsafeMessage(pattern: string): string {
  return `regular expression '${pattern.slice(0, 100)}' is invalid or could backtrack catastrophically (nested quantifiers); rewrite it without a repeated group that itself repeats`;
}
