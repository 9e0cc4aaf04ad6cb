/** JSON schemas of POST /qualify. A candidate that is not an object and a min_score that is not a
 * number fail this schema and are answered with the spec's `bad_candidates` and `bad_min_score`
 * bodies (the route reads the validation issues); the waterfall service checks both again. */

import { jsonObject } from '../../contract';

/** Past this, a synchronous answer stops being quick; bigger batches belong in an enrichment run. */
export const QUALIFY_MAX_CANDIDATES = 1000;

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

const count = { type: 'integer', minimum: 0 } as const;

const qualifyCell = {
  type: 'object',
  properties: {
    score: { type: 'number', minimum: 0, maximum: 10 },
    basis: { type: 'string', enum: ['work_history', 'resume_text', 'title_only'] },
    summary: { type: 'string' },
    strengths: { type: 'array', items: { type: 'string' } },
    gaps: { type: 'array', items: { type: 'string' } },
  },
  required: ['score', 'basis', 'summary', 'strengths', 'gaps'],
} as const;

const rankedCandidates = {
  type: 'array',
  items: { ...jsonObject('the candidate row with its qualify cell'), properties: { qualify: qualifyCell } },
} as const;

/** The ranked candidates; with `async: true`, the run handle and `candidates` as the row count. */
export const qualifiedSchema = {
  type: 'object',
  properties: {
    candidates: { anyOf: [rankedCandidates, { ...count, description: 'async: the number of rows' }] },
    run_id: { type: 'string', description: 'async only' },
    dataset_id: { type: 'string', description: 'async only: the dataset the cells are written into' },
    status: { type: 'string', enum: ['running'], description: 'async only' },
    _meta: {
      type: 'object',
      properties: {
        credits_charged: { type: 'number', description: 'always 0: scoring is free (decision 0030)' },
        scored_on: {
          type: 'object',
          properties: { work_history: count, resume_text: count, title_only: count },
          required: ['work_history', 'resume_text', 'title_only'],
        },
        thin_profiles: { type: 'array', items: count, description: 'request positions of candidates with no history' },
        run_id: { type: 'string' },
        dataset_id: { type: 'string' },
        status: { type: 'string' },
      },
      required: ['credits_charged', 'scored_on', 'thin_profiles'],
    },
  },
  required: ['candidates', '_meta'],
} as const;
