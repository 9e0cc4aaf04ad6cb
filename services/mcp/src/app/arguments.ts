import Ajv, { type ErrorObject } from 'ajv';
import { httpError } from '@rde/platform';
import { publicSchemas } from '@rde/proto';

/** Tool arguments are validated exactly as the gateway validates a REST body (the same options). */
const ajv = new Ajv({ ...publicSchemas.BODY_VALIDATION });

type Refine = (issues: readonly publicSchemas.SchemaIssue[]) => publicSchemas.Refusal | undefined;

/**
 * A check of one tool's arguments, compiled once: it fills defaults in and throws the spec's error
 * body (the REST route's 422 list, or a refusal the spec names) for arguments the schema refuses.
 */
export function argumentCheck(schema: Record<string, unknown>, refine?: Refine): (args: unknown) => void {
  const validate = ajv.compile(schema);
  return (args) => {
    if (validate(args)) return;
    const issues = validate.errors as ErrorObject[];
    const refusal = refine?.(issues) ?? publicSchemas.validationRefusal('body', issues, schema);
    throw httpError(refusal.status, refusal.body);
  };
}
