/** JSON Schema pieces the provider declarations describe their parameters with. */

export const text = { type: 'string', minLength: 1, maxLength: 500 } as const;

export const textList = { type: 'array', items: text, minItems: 1, maxItems: 100 } as const;

/** A closed object: the vendor refuses keys it does not document, so the catalog refuses them first. */
export function closedObject(properties: Record<string, object>, extra: Record<string, unknown> = {}) {
  return { type: 'object', properties, additionalProperties: false, ...extra } as const;
}

/** The parameter of every look-up by LinkedIn profile. */
export const linkedinUrlParameter = {
  name: 'linkedin_url',
  type: 'string',
  required: true,
  description: 'LinkedIn profile URL',
  schema: text,
} as const;
