import { jsonObject } from './common';

/** Past this, a synchronous answer stops being quick; bigger batches belong in an enrichment run. */
export const QUALIFY_MAX_CANDIDATES = 1000;

/**
 * `POST /qualify` (spec "Qualify"). A candidate that is not an object and a min_score that is not a
 * number fail this schema and are answered with the spec's `bad_candidates` and `bad_min_score`
 * bodies (refusals.ts); the waterfall service checks both again.
 */
export const qualifyBody = {
  type: 'object',
  properties: {
    job_spec: {
      type: 'string',
      minLength: 1,
      maxLength: 20_000,
      pattern: '\\S',
      description: 'the role, as free text',
    },
    candidates: {
      type: 'array',
      maxItems: QUALIFY_MAX_CANDIDATES,
      items: jsonObject(),
      description: 'rows as returned by search or profile enrichment; every entry must be an object',
    },
    min_score: {
      type: 'number',
      description: 'a number 0 to 10: only candidates at or above it are kept (422 bad_min_score otherwise)',
    },
    allow_thin_profiles: { type: 'boolean', default: false },
    async: {
      type: 'boolean',
      default: false,
      description: 'score into a new dataset in the background; poll GET /api/v2/datasets/{dataset_id}',
    },
  },
  required: ['job_spec', 'candidates'],
  additionalProperties: false,
} as const;
