import Ajv, { type Options } from 'ajv';
import addFormats from 'ajv-formats';
import fastUri from 'fast-uri';
import type { FastifyInstance } from 'fastify';
import { publicSchemas } from '@rde/proto';

/**
 * Request validation. Query strings and path parameters arrive as text, so their numbers and
 * booleans are coerced; a JSON body is taken as sent — `"5"` is not a number, so a client learns
 * of its mistake instead of having it silently repaired. Every problem is reported at once
 * (bodies are bounded by the body limit) and unknown keys are never dropped silently.
 */
export function registerValidation(app: FastifyInstance): void {
  const body = validator(publicSchemas.BODY_VALIDATION);
  const textual = validator({ ...publicSchemas.BODY_VALIDATION, coerceTypes: 'array' });
  app.setValidatorCompiler(({ schema, httpPart }) => (httpPart === 'body' ? body : textual).compile(schema));
}

/** The body options are shared with the mcp service, which validates tool arguments the same way. */
function validator(options: Options): Ajv {
  const ajv = new Ajv({ ...options, uriResolver: fastUri, addUsedSchema: false });
  addFormats(ajv);
  return ajv;
}
