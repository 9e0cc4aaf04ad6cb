/** JSON Schema pieces the vendors' and the admin API's route schemas are built from. */

export const text = { type: 'string', minLength: 1, maxLength: 500 } as const;

export const textList = { type: 'array', items: text, minItems: 1, maxItems: 100 } as const;

export function object(
  properties: Record<string, object>,
  required: readonly string[] = [],
  additionalProperties = false,
) {
  return { type: 'object', properties, required, additionalProperties } as const;
}

export const jobIdParams = (name: string) => object({ [name]: text }, [name]);
