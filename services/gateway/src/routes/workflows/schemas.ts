/** JSON schemas of the workflow definition routes: they validate requests (422 on failure) and feed /openapi.json. */

import { publicSchemas } from '@rde/proto';
import { INT32_MAX, jsonObject, pageOffset, pageSchema, validationIssue, pathParamsSchema } from '../../contract';

/** Lint answers any JSON object with its problems, so its body is only an object: the checks are the answer. */
export const lintBody = {
  ...jsonObject(
    'a workflow definition (GET /api/v2/workflows/schema), or a bare {config, trigger} with the steps under config',
  ),
} as const;

/** Apply takes a full definition; the fixed schema first, then lint's semantic rules (422 with paths). */
export const applyBody = publicSchemas.workflowDefinitionSchema;

export const workflowParams = pathParamsSchema('workflow_id', { description: '`wf_` id' });

export const versionQuery = {
  type: 'object',
  properties: {
    version: {
      type: 'integer',
      minimum: 1,
      maximum: INT32_MAX,
      description: 'a version number; the latest when left out',
    },
  },
} as const;

/** No list default is given by the spec for workflows: 50, as its recent runs (decision 0072). */
export const listQuery = {
  type: 'object',
  properties: { offset: pageOffset, limit: { type: 'integer', minimum: 1, maximum: 100, default: 50 } },
} as const;

export const schemaQuery = {
  type: 'object',
  properties: {
    subject: {
      type: 'string',
      maxLength: 200,
      default: '',
      description: 'empty: the definition; a `uses` (e.g. `search.people_search`, `<tool>.<method>`): that step input',
    },
  },
} as const;

const summaryProperties = {
  id: { type: 'string', description: '`wf_` id' },
  name: { type: 'string' },
  description: { type: ['string', 'null'] },
  status: { enum: ['enabled', 'disabled'] },
  trigger: { type: 'object', properties: { type: { enum: ['manual', 'webhook'] } }, required: ['type'] },
  latest_version: { type: 'integer' },
  created_at: { type: 'string', format: 'date-time' },
  updated_at: { type: 'string', format: 'date-time' },
} as const;

const summarySchema = {
  type: 'object',
  properties: summaryProperties,
  required: Object.keys(summaryProperties),
} as const;

const recordProperties = {
  ...summaryProperties,
  version: { type: 'integer', description: 'the version shown' },
  version_created_at: { type: 'string', format: 'date-time' },
  definition: { ...jsonObject('the definition of that version, as applied') },
} as const;

export const workflowSchema = {
  type: 'object',
  properties: recordProperties,
  required: Object.keys(recordProperties),
} as const;

export const appliedSchema = {
  type: 'object',
  properties: {
    ...recordProperties,
    changed: { type: 'boolean', description: 'false: the definition equals the latest version, nothing was stored' },
    created: { type: 'boolean', description: 'true: this call created the workflow (version 1)' },
    webhook_id: {
      type: 'string',
      description: 'the inbound webhook id, shown once: on the apply that made it a webhook workflow',
    },
    webhook_url: { type: 'string', description: 'the path to POST to: /api/v2/webhooks/inbound/{webhook_id}' },
  },
  required: [...Object.keys(recordProperties), 'changed', 'created'],
} as const;

export const lintSchema = {
  type: 'object',
  properties: {
    valid: { type: 'boolean' },
    problems: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          path: { type: 'string', description: 'a JSON Pointer into the document sent' },
          code: { type: 'string' },
          message: { type: 'string' },
        },
        required: ['path', 'code', 'message'],
        additionalProperties: true,
      },
    },
  },
  required: ['valid', 'problems'],
} as const;

export const listSchema = pageSchema('workflows', summarySchema);

export const subjectSchema = {
  type: 'object',
  properties: { subject: { type: 'string' }, schema: jsonObject('a JSON Schema') },
  required: ['subject', 'schema'],
} as const;

/** Apply refused by lint: the spec's 422 list, each item also with its JSON Pointer and any invalid_payload details. */
export const lintRefusalSchema = {
  type: 'object',
  properties: {
    detail: {
      type: 'array',
      items: {
        ...validationIssue,
        properties: {
          ...validationIssue.properties,
          path: { type: 'string', description: 'a JSON Pointer into the definition' },
        },
        additionalProperties: true,
      },
    },
  },
  required: ['detail'],
} as const;
