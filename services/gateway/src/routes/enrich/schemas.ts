import { jsonObject, pathParam } from '../../contract';
import { credits, runMeteringProperties, warnings } from '../waterfall-meta';

/**
 * JSON schemas of the enrichment waterfall routes. The gateway checks the envelope (rows are 1 to
 * 100 objects, payload one object); the waterfall service reads each row and checks the same
 * again for callers of its RPC.
 */

/** Spec "Enrichment waterfalls": the four enrichment capabilities. */
export const ENRICH_CAPABILITIES = ['email_enrichment', 'personal_email', 'linkedin_profile', 'phone_enrichment'];

export const capabilityParams = {
  type: 'object',
  properties: { capability: { type: 'string', enum: ENRICH_CAPABILITIES } },
  required: ['capability'],
} as const;

const rows = {
  type: 'array',
  minItems: 1,
  maxItems: 100,
  items: { ...jsonObject(), maxProperties: 200 },
  description: 'up to 100 row objects, each e.g. with linkedin_url, name, company_domain, company_name',
} as const;

const payload = { ...jsonObject('one row'), maxProperties: 200 } as const;

const dryRun = {
  type: 'boolean',
  description: 'price the call without holding credits or calling a provider',
} as const;

/**
 * One of rows or payload is required. Both together stay schema-valid here so the waterfall
 * service answers them with its 400 `invalid_payload` (rows and payload are exclusive).
 */
const rowsOrPayload = [{ required: ['rows'] }, { required: ['payload'] }];

/** `POST /enrich/{capability}`: rows (or one payload row); `preview` is accepted as a dry run. */
export const enrichBody = {
  type: 'object',
  properties: { rows, payload, dry_run: dryRun, preview: dryRun },
  anyOf: rowsOrPayload,
  additionalProperties: false,
} as const;

/** `POST /tools/{waterfall}`: payload (one row) or rows, exclusive. */
export const toolBody = {
  type: 'object',
  properties: { payload, rows, dry_run: dryRun },
  anyOf: rowsOrPayload,
  additionalProperties: false,
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

export const jobParams = {
  type: 'object',
  properties: {
    provider: pathParam({ examples: ['ringdirect'] }),
    job_id: pathParam(),
  },
  required: ['provider', 'job_id'],
} as const;

export const resumeParams = {
  type: 'object',
  properties: { provider: pathParam({ examples: ['ringdirect'] }) },
  required: ['provider'],
} as const;

/** `POST /tools/enrich_jobs/{provider}`: the resume of a `still_enriching` step. */
export const resumeBody = {
  type: 'object',
  properties: {
    payload: {
      type: 'object',
      properties: { job_id: pathParam() },
      required: ['job_id'],
      additionalProperties: false,
    },
  },
  required: ['payload'],
  additionalProperties: false,
} as const;

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
