import { jsonObject, pathParam } from './common';

/**
 * Enrichment waterfall requests (spec "Enrichment waterfalls"). The envelope is checked here (rows
 * are 1 to 100 objects, payload one object); the waterfall service reads each row and checks the
 * same again for callers of its RPC.
 */

/** The four enrichment capabilities. */
export const ENRICH_CAPABILITIES = ['email_enrichment', 'personal_email', 'linkedin_profile', 'phone_enrichment'];

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

/** `POST /tools/{waterfall}` for an enrichment waterfall: payload (one row) or rows, exclusive. */
export const enrichToolBody = {
  type: 'object',
  properties: { payload, rows, dry_run: dryRun },
  anyOf: rowsOrPayload,
  additionalProperties: false,
} as const;

/** The tool name of a `still_enriching` step's `resume`: {tool: "enrich_jobs", method: <provider>, id_arg: "job_id"}. */
export const RESUME_TOOL = 'enrich_jobs';

/** `GET /enrich/jobs/{provider}/{job_id}`. */
export const jobParams = {
  type: 'object',
  properties: {
    provider: pathParam({ examples: ['ringdirect'] }),
    job_id: pathParam(),
  },
  required: ['provider', 'job_id'],
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
