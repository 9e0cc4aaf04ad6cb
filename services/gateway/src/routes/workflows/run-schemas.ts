/** JSON schemas of the workflow run and webhook routes (decisions 0074, 0075): requests and /openapi.json. */

import { publicSchemas } from '@rde/proto';
import { pageOffset, pageSchema, pathParam, pathParamsSchema } from '../../contract';
import { workflowParams } from './schemas';

/** `POST /workflows/call` (decision 0074), shared with the MCP tool `call_workflow`. */
export const callBody = publicSchemas.workflowCallBody;

export const runParams = {
  type: 'object',
  properties: { ...workflowParams.properties, run_id: pathParam({ description: '`wfr_` id' }) },
  required: ['workflow_id', 'run_id'],
} as const;

export const webhookParams = pathParamsSchema('webhook_id', {
  description: 'the id shown once when the workflow became a webhook one',
});

const pageQuery = (fallback: number) =>
  ({
    type: 'object',
    properties: { offset: pageOffset, limit: { type: 'integer', minimum: 1, maximum: 100, default: fallback } },
  }) as const;

/** Spec "Limits": 25 runs of a workflow, 50 recent runs. */
export const workflowRunsQuery = pageQuery(25);
export const recentRunsQuery = pageQuery(50);

const nullableTime = { type: ['string', 'null'], format: 'date-time' } as const;
const stepError = {
  type: ['object', 'null'],
  properties: { code: { type: 'string' }, message: { type: 'string' } },
  additionalProperties: true,
} as const;

const stepSchema = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    uses: { type: 'string' },
    status: { enum: ['pending', 'running', 'succeeded', 'failed', 'skipped', 'cancelled'] },
    started_at: nullableTime,
    ended_at: nullableTime,
    duration_ms: { type: ['integer', 'null'] },
    items: { type: 'integer', description: 'calls made (one per `for_each` item)' },
    charged_credits: { type: 'number' },
    would_charge_credits: { type: 'number', description: 'a dry run’s estimate' },
    error: stepError,
    output: { description: 'the step’s answer as its REST route answers (a list for `for_each`); not in lists' },
  },
  required: ['id', 'uses', 'status', 'started_at', 'ended_at', 'items', 'charged_credits', 'error'],
} as const;

export const runSchema = {
  type: 'object',
  properties: {
    id: { type: 'string', description: '`wfr_` id' },
    workflow_id: { type: 'string' },
    workflow_name: { type: 'string' },
    version: { type: 'integer', description: 'the version the run is pinned to' },
    status: { enum: ['queued', 'running', 'succeeded', 'failed', 'cancelled'] },
    mode: { enum: ['live', 'dry_run', 'smoke_test'] },
    source: { type: 'string' },
    cancel_requested: { type: 'boolean' },
    created_at: { type: 'string', format: 'date-time' },
    started_at: nullableTime,
    ended_at: nullableTime,
    duration_ms: { type: ['integer', 'null'] },
    charged_credits: { type: 'number', description: 'the sum of the ledger rows carrying this workflow_run_id' },
    would_charge_credits: { type: 'number', description: 'dry_run only' },
    error: stepError,
    input: { type: 'object', additionalProperties: true },
    output: { description: 'the definition’s `output`, resolved when the run ended' },
    steps: { type: 'array', items: stepSchema },
  },
  required: ['id', 'workflow_id', 'version', 'status', 'mode', 'source', 'created_at', 'charged_credits', 'steps'],
} as const;

export const runListSchema = pageSchema('runs', runSchema);

export const rotatedSchema = {
  type: 'object',
  properties: {
    workflow_id: { type: 'string' },
    webhook_id: { type: 'string', description: 'shown this once' },
    webhook_url: { type: 'string', description: 'the path to POST to' },
  },
  required: ['workflow_id', 'webhook_id', 'webhook_url'],
} as const;
