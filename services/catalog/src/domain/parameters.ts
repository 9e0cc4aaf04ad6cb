import Ajv, { type ValidateFunction } from 'ajv';
import { errors } from '@rde/platform';
import { publicSchemas } from '@rde/proto';
import type { MethodDeclaration, ParameterDeclaration } from '../providers/declaration';

export type JsonObject = Record<string, unknown>;

/** What a client sent: `payload` and/or positional `args` and named `kwargs`. */
export interface CallInput {
  readonly payload?: JsonObject;
  readonly args?: readonly unknown[];
  readonly kwargs?: JsonObject;
}

/** The call as the method will receive it: required parameters positionally, the rest by name. */
export interface ResolvedParameters {
  readonly values: JsonObject;
  readonly args: unknown[];
  readonly kwargs: JsonObject;
}

/** The JSON Schema of the one JSON body a method takes (its parameters as an object). */
export function payloadSchemaOf(method: MethodDeclaration): JsonObject {
  const groups = method.oneOfRequired ?? [];
  return {
    type: 'object',
    properties: Object.fromEntries(method.parameters.map((p) => [p.name, parameterSchema(p)])),
    required: method.parameters.filter((p) => p.required).map((p) => p.name),
    ...(groups.length > 0 && {
      allOf: groups.map((group) => ({ anyOf: group.map((name) => ({ required: [name] })) })),
    }),
    additionalProperties: method.acceptsVendorOptions === true,
  };
}

function parameterSchema(parameter: ParameterDeclaration): JsonObject {
  return { type: parameter.type, description: parameter.description, ...parameter.schema };
}

/**
 * Checks every parameter set against its method before anything is reserved or called. Validators
 * are compiled once per method (ajv compiles a schema into a function; compiling per call would
 * dominate the call path).
 */
export class ParameterResolver {
  private readonly ajv = new Ajv({ allErrors: true, strict: true, strictRequired: false });
  private readonly validators = new WeakMap<MethodDeclaration, ValidateFunction>();

  /** Compiles every method's schema up front: a declaration mistake stops the service at start. */
  compileAll(methods: Iterable<MethodDeclaration>): void {
    for (const method of methods) this.validatorFor(method);
  }

  /**
   * Combines `payload`, `args` and `kwargs` into the method's parameters, refusing with the spec's
   * 400 `invalid_payload` body: keys the method does not have (unless it takes vendor options),
   * required keys missing (`missing_one_of` for a group none of which was given), a key given twice,
   * too many positional args, or a value of the wrong type.
   */
  resolve(method: MethodDeclaration, input: CallInput): ResolvedParameters {
    const expected = method.parameters.map((p) => p.name);
    const values = combine(method, input, expected);
    const known = new Set(expected);
    const unknown = method.acceptsVendorOptions ? [] : Object.keys(values).filter((key) => !known.has(key));
    const missing = method.parameters.filter((p) => p.required && values[p.name] === undefined).map((p) => p.name);
    const missingOneOf = (method.oneOfRequired ?? []).filter((group) =>
      group.every((name) => values[name] === undefined),
    );
    if (unknown.length > 0 || missing.length > 0 || missingOneOf.length > 0) {
      throw invalidPayload({
        ...(unknown.length > 0 && { unknown }),
        ...(missing.length > 0 && { missing }),
        ...(missingOneOf.length > 0 && { missing_one_of: missingOneOf }),
        expected,
      });
    }
    const validate = this.validatorFor(method);
    if (!validate(values)) {
      // Worded as the gateway words a 422 (decision 0052): the property named, a "did you mean".
      const invalid = publicSchemas
        .describeIssues(validate.errors ?? [], validate.schema as object)
        .map(({ path, msg }) => ({ key: path.join('.'), message: msg }));
      throw invalidPayload({ invalid, expected });
    }
    return split(method, values);
  }

  private validatorFor(method: MethodDeclaration): ValidateFunction {
    let validate = this.validators.get(method);
    if (!validate) {
      validate = this.ajv.compile(payloadSchemaOf(method));
      this.validators.set(method, validate);
    }
    return validate;
  }
}

function invalidPayload(details: JsonObject) {
  return errors.badRequest({ error: 'invalid_payload', ...details });
}

function combine(method: MethodDeclaration, input: CallInput, expected: string[]): JsonObject {
  const args = input.args ?? [];
  if (args.length > expected.length) {
    throw invalidPayload({
      detail: `${args.length} positional args given; ${method.name} takes at most ${expected.length}`,
      expected,
    });
  }
  const sources: JsonObject[] = [
    Object.fromEntries(args.map((value, position) => [expected[position], value])),
    input.kwargs ?? {},
    input.payload ?? {},
  ];
  // No prototype: a key such as `constructor` or `toString` is only ever the caller's own.
  const values = Object.create(null) as JsonObject;
  const duplicate = new Set<string>();
  for (const source of sources) {
    for (const [key, value] of Object.entries(source)) {
      if (Object.hasOwn(values, key)) duplicate.add(key);
      values[key] = value;
    }
  }
  if (duplicate.size > 0) throw invalidPayload({ duplicate: [...duplicate], expected });
  return values;
}

function split(method: MethodDeclaration, values: JsonObject): ResolvedParameters {
  const required = new Set(method.parameters.filter((p) => p.required).map((p) => p.name));
  const args = method.parameters.filter((p) => required.has(p.name)).map((p) => values[p.name]);
  const kwargs = Object.fromEntries(Object.entries(values).filter(([key]) => !required.has(key)));
  return { values, args, kwargs };
}
