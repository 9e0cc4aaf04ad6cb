import { publicSchemas } from '@rde/proto';
import { errorBody, jsonObject, pathParamsSchema } from '../../contract';
import { credits } from '../waterfall-meta';

/**
 * JSON schemas of the dataset enrichment runs (spec "Dataset enrichment runs", decision 0031). The
 * gateway checks the envelope; the waterfall service checks the same again for direct RPC callers,
 * and the rules across fields (in_place needs an input dataset) in the spec's 422 body.
 */

/**
 * A 10,000-row input_rows body is larger than the gateway's default body limit; the bound is the
 * dataset upload's, under gRPC's 4 MB message (a larger body is 413, not a failed call).
 */
export { CREATE_BODY_LIMIT_BYTES as RUN_BODY_LIMIT_BYTES } from '../datasets/schemas';

/** `POST /enrich/run`: the public contract's body (the workflow step `enrich.run` takes the same). */
export const { enrichRunBody: runBody } = publicSchemas;

export const runParams = pathParamsSchema('run_id', { examples: ['enr_0123456789abcdef01234567'] });

const progress = {
  type: 'object',
  properties: { done: { type: 'integer' }, total: { type: 'integer' } },
  required: ['done', 'total'],
} as const;

const meta = {
  type: 'object',
  properties: {
    run_id: { type: 'string' },
    status: { type: 'string', description: '`running`, `completed`, `cancelled` or `failed`' },
    dataset_id: { type: 'string' },
    progress,
    poll_after_s: { type: 'integer' },
    row_count: { type: 'integer' },
    credits_charged: credits,
    charged: credits,
    balance: credits,
    settled: { type: 'boolean' },
    replayed: { type: 'boolean' },
    would_charge_credits: credits,
    would_call: { type: 'string' },
    warnings: { type: 'array', items: { type: 'object', additionalProperties: true } },
    error: { type: 'string' },
  },
  additionalProperties: true,
} as const;

/** The Enrich run record (spec "Enrich run"), or a no-spend check's answer: a summary, never rows. */
export const runRecord = {
  type: 'object',
  properties: {
    run_id: { type: 'string' },
    status: { type: 'string' },
    dataset_id: { type: 'string' },
    steps: { type: 'array', items: { type: 'string' } },
    range: { type: 'string' },
    progress,
    summary: { type: 'object', additionalProperties: true },
    columns: { type: 'array', items: { type: 'string' } },
    sample: { type: 'array', items: jsonObject() },
    plan: { type: 'array', items: { type: 'object', additionalProperties: true } },
    preview: { type: 'array', items: { type: 'object', additionalProperties: true } },
    _meta: meta,
  },
  required: ['status', '_meta'],
  additionalProperties: true,
} as const;

/**
 * Rule 2's 402: the balance cannot cover one row (`insufficient_credits`, with what one row needs
 * and what is available), or a spending cap refused the run (`spending_cap_reached`). With payments
 * configured, the want of credits carries `checkout_url` (decision 0046).
 */
export const runRefused = {
  ...errorBody,
  description: 'the balance cannot cover one row, or a spending cap refused the run',
  properties: {
    ...errorBody.properties,
    required: { type: 'number', description: "credits one row's worst case needs" },
    available: { type: 'number', description: 'credits available' },
    checkout_url: {
      type: 'string',
      description:
        "billing's hosted checkout page: the smallest top-up tier covering the run's worst case beyond the balance (on Free, the first paid plan); present only when payments are configured",
    },
  },
} as const;
