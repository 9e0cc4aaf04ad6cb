import { publicSchemas } from '@rde/proto';
import { jsonObject, pathParamsSchema } from '../../contract';
import { credits, runMeteringProperties, warnings } from '../waterfall-meta';

/**
 * JSON schemas of the enrichment waterfall routes. The request schemas are the shared public
 * contract (@rde/proto publicSchemas, decision 0037), which the MCP tools advertise too.
 */

export const { ENRICH_CAPABILITIES, enrichBody, jobParams, resumeBody } = publicSchemas;
export const toolBody = publicSchemas.enrichToolBody;

export const capabilityParams = {
  type: 'object',
  properties: { capability: { type: 'string', enum: ENRICH_CAPABILITIES } },
  required: ['capability'],
} as const;

const meta = {
  type: 'object',
  properties: {
    ...runMeteringProperties,
    status: { type: 'string', description: '`running`, `completed` or `failed`' },
    progress: {
      type: 'object',
      properties: { done: { type: 'integer' }, total: { type: 'integer' } },
    },
    poll_after_s: { type: 'integer' },
    replayed: { type: 'boolean' },
    pending_jobs: {
      type: 'array',
      items: {
        type: 'object',
        properties: { provider: { type: 'string' }, job_id: { type: 'string' }, fetch: { type: 'string' } },
      },
    },
    would_charge_credits: credits,
    would_call: { type: 'string' },
    warnings,
  },
} as const;

/** Rows as enriched (each with its steps), or the running handle, with `_meta`. */
export const enrichResult = {
  type: 'object',
  properties: { results: { type: 'array', items: jsonObject() }, _meta: meta },
  required: ['_meta'],
  additionalProperties: true,
} as const;

export const resumeParams = pathParamsSchema('provider', { examples: ['ringdirect'] });

/** The enrich job record (spec "Enrich job"). */
export const jobRecord = {
  type: 'object',
  properties: {
    provider: { type: 'string' },
    job_id: { type: 'string' },
    capability: { type: 'string' },
    status: { type: 'string', enum: ['pending', 'settled', 'failed', 'expired'] },
    run_id: { type: 'string' },
    dataset_id: { type: 'string' },
    rows: { type: 'integer' },
    charged: credits,
    email: { type: ['string', 'null'] },
    result: {},
  },
  required: ['provider', 'job_id', 'status'],
  additionalProperties: true,
} as const;
