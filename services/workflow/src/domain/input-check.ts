import Ajv, { type ValidateFunction } from 'ajv';
import type { CallIssue } from './call-request';

/**
 * Checks a run's input against its pinned version's `input.schema` (already held to the secure
 * meta-schema by lint). Compiled schemas are kept per version: a version never changes.
 */
export class InputCheck {
  private readonly ajv = new Ajv({ allErrors: true, strict: false, addUsedSchema: false });
  private readonly compiled = new Map<string, ValidateFunction>();

  issues(versionKey: string, schema: Record<string, unknown> | undefined, input: unknown): CallIssue[] {
    if (!schema) return [];
    let validate = this.compiled.get(versionKey);
    if (!validate) {
      validate = this.ajv.compile(schema);
      this.compiled.set(versionKey, validate);
    }
    if (validate(input)) return [];
    return (validate.errors ?? []).map((error) => ({
      loc: ['body', 'input', ...error.instancePath.split('/').slice(1)],
      msg: `input${error.instancePath} ${error.message ?? 'is invalid'}`,
      type: error.keyword,
    }));
  }
}
