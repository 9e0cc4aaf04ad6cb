import Ajv, { type Options } from 'ajv';
import addFormats from 'ajv-formats';
import fastUri from 'fast-uri';
import type { FastifyInstance } from 'fastify';

/**
 * Request validation. Query strings and path parameters arrive as text, so their numbers and
 * booleans are coerced; a JSON body is taken as sent — `"5"` is not a number, so a client learns
 * of its mistake instead of having it silently repaired. Every problem is reported at once
 * (bodies are bounded by the body limit) and unknown keys are never dropped silently.
 */
export function registerValidation(app: FastifyInstance): void {
  const body = validator({ coerceTypes: false });
  const textual = validator({ coerceTypes: 'array' });
  app.setValidatorCompiler(({ schema, httpPart }) => (httpPart === 'body' ? body : textual).compile(schema));
}

function validator(options: Pick<Options, 'coerceTypes'>): Ajv {
  const ajv = new Ajv({
    ...options,
    allErrors: true,
    useDefaults: true,
    removeAdditional: false,
    uriResolver: fastUri,
    addUsedSchema: false,
    // Route schemas carry OpenAPI annotations (example, description on refs) that strict mode refuses.
    strict: false,
  });
  addFormats(ajv);
  return ajv;
}
