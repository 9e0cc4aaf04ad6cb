import Ajv from 'ajv';
import { publicSchemas } from '@rde/proto';
import { DEFINITION_SCHEMA, type Definition } from './definition';
import { pointer } from './pointer';
import type { Problem } from './problems';
import { isObject } from './references';

/** How deeply a document may nest: the gateway's body limit, kept here for callers that are not the gateway. */
export const DOCUMENT_MAX_DEPTH = 64;

export type Shaped =
  | { readonly ok: true; readonly definition: Definition; readonly locate: (path: string) => string }
  | { readonly ok: false; readonly problems: Problem[] };

/**
 * Lint step 1: the document parses, nests no deeper than the limit, and fits the fixed schema. A
 * bare `{config, trigger}` (spec: lint accepts one) is unfolded into a definition first; its
 * problems still point into the document as sent (`/config/steps/0`), and its name is optional.
 */
export class DefinitionShape {
  private readonly ajv = new Ajv({ ...publicSchemas.BODY_VALIDATION, useDefaults: false, addUsedSchema: false });
  private readonly full = this.ajv.compile(DEFINITION_SCHEMA);
  private readonly nameless = this.ajv.compile({ ...DEFINITION_SCHEMA, required: ['trigger', 'steps'] });

  check(json: Uint8Array | string, options: { allowBare: boolean }): Shaped {
    let document: unknown;
    try {
      document = JSON.parse(Buffer.from(json).toString('utf8'));
    } catch (error) {
      return refused('', 'not_json', `the definition is not JSON: ${(error as Error).message}`);
    }
    if (deeperThan(document, DOCUMENT_MAX_DEPTH)) {
      return refused('', 'too_deep', `the definition nests objects and arrays deeper than ${DOCUMENT_MAX_DEPTH}`);
    }
    const bare = options.allowBare && isObject(document) && isObject(document.config) && !('steps' in document);
    const candidate = bare ? unfold(document as Record<string, unknown>) : document;
    const locate = bare
      ? (path: string) => (path.startsWith('/trigger') ? path : `/config${path}`)
      : (path: string) => path;
    const validate = bare ? this.nameless : this.full;
    if (validate(candidate)) return { ok: true, definition: candidate as Definition, locate };
    const problems = publicSchemas
      .describeIssues(validate.errors ?? [], validate.schema as object)
      .map(({ path, msg }): Problem => ({ path: locate(pointer(...path)), message: msg, code: 'schema' }));
    return { ok: false, problems };
  }
}

/** `{config: {steps, input?, …}, trigger}` as a definition. */
function unfold(document: Record<string, unknown>): Record<string, unknown> {
  const { config, ...rest } = document;
  return { ...(config as Record<string, unknown>), ...rest };
}

function refused(path: string, code: Problem['code'], message: string): Shaped {
  return { ok: false, problems: [{ path, code, message }] };
}

/** Whether a parsed JSON value nests deeper than `limit`, walked without recursion. */
export function deeperThan(value: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (typeof node !== 'object' || node === null) continue;
    if (depth >= limit) return true;
    for (const child of Object.values(node)) stack.push([child, depth + 1]);
  }
  return false;
}
