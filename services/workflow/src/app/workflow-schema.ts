import { errors, type Caller } from '@rde/platform';
import { DEFINITION_SCHEMA } from '../domain/definition';
import { USES_HELP } from '../domain/uses';
import type { LintWorkflow } from './lint-workflow';

/**
 * GET /api/v2/workflows/schema: the definition's JSON Schema, or with a subject the input schema
 * of that `uses`, so an agent can write a valid workflow from the interface alone.
 */
export class WorkflowSchema {
  constructor(private readonly lint: LintWorkflow) {}

  async schemaOf(subject: string, caller: Caller): Promise<Record<string, unknown>> {
    if (subject === '') return { $schema: 'http://json-schema.org/draft-07/schema#', ...DEFINITION_SCHEMA };
    const schema = await this.lint.schemaOf(subject, caller);
    if (!schema) throw errors.notFound(`'${subject}' is not something a step can use: ${USES_HELP}`);
    return schema;
  }
}
