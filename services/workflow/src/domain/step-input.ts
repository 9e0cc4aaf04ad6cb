import Ajv, { type ValidateFunction } from 'ajv';
import { publicSchemas } from '@rde/proto';
import { isObject } from './references';

/**
 * A step's `with` against the input schema of what it `uses`, by the tools' rule for a payload
 * (spec Tools 1 and 2): keys the method does not have, required keys missing, and literal values
 * of the wrong type, answered with the body of the tools' 400 `invalid_payload` (`unknown`,
 * `missing`, `missing_one_of`, `invalid`, `expected`). A value holding a reference is known only
 * when a run resolves it, so only its key is checked here.
 */
export type PayloadDetails = {
  unknown?: string[];
  missing?: string[];
  missing_one_of?: string[][];
  invalid?: { key: string; message: string }[];
  expected: string[];
};

type StepSchema = Record<string, unknown>;

export class StepInputCheck {
  private readonly ajv = new Ajv({ ...publicSchemas.BODY_VALIDATION, useDefaults: false, addUsedSchema: false });
  private readonly validators = new WeakMap<object, ValidateFunction>();

  /** The problems of `given` as a call of `schema`, or undefined when it is a valid call. */
  details(schema: StepSchema, given: Record<string, unknown>): PayloadDetails | undefined {
    const properties = isObject(schema.properties) ? schema.properties : {};
    const expected = Object.keys(properties);
    const unknown =
      schema.additionalProperties === false ? Object.keys(given).filter((key) => !Object.hasOwn(properties, key)) : [];
    const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
    const missing = required.filter((key) => !Object.hasOwn(given, key));
    const missingOneOf = oneOfGroups(schema).filter((group) => group.every((key) => !Object.hasOwn(given, key)));
    const invalid = Object.entries(given).flatMap(([key, value]) =>
      isObject(properties[key]) && isLiteral(value) ? this.invalid(properties[key], key, value) : [],
    );
    if (unknown.length + missing.length + missingOneOf.length + invalid.length === 0) return undefined;
    return {
      ...(unknown.length > 0 && { unknown }),
      ...(missing.length > 0 && { missing }),
      ...(missingOneOf.length > 0 && { missing_one_of: missingOneOf }),
      ...(invalid.length > 0 && { invalid }),
      expected,
    };
  }

  private invalid(schema: object, key: string, value: unknown): { key: string; message: string }[] {
    let validate = this.validators.get(schema);
    if (!validate) this.validators.set(schema, (validate = this.ajv.compile(schema)));
    if (validate(value)) return [];
    return publicSchemas
      .describeIssues(validate.errors ?? [], schema)
      .map(({ path, msg }) => ({ key: [key, ...path].join('.'), message: msg }));
  }
}

/**
 * Groups of keys at least one of which is required: `anyOf` (or `oneOf`: exactly one, checked when
 * the call is made) of `required` lists, top level or under `allOf`.
 */
function oneOfGroups(schema: StepSchema): string[][] {
  const alternatives = (node: unknown): string[] | undefined => {
    const branches = isObject(node) ? (node.anyOf ?? node.oneOf) : undefined;
    if (!Array.isArray(branches)) return undefined;
    const keys = branches.map((branch) => (isObject(branch) && Array.isArray(branch.required) ? branch.required : []));
    return keys.every((list) => list.length === 1) ? keys.map((list) => String(list[0])) : undefined;
  };
  const nested = Array.isArray(schema.allOf) ? schema.allOf.map(alternatives) : [];
  return [alternatives(schema), ...nested].filter((group): group is string[] => group !== undefined);
}

/** True when no string anywhere in the value holds a reference. */
function isLiteral(value: unknown): boolean {
  if (typeof value === 'string') return !value.includes('{{');
  if (Array.isArray(value)) return value.every(isLiteral);
  if (isObject(value)) return Object.values(value).every(isLiteral);
  return true;
}
