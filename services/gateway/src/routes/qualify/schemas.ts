/** JSON schemas of POST /qualify. The request schema is the shared public contract (@rde/proto
 * publicSchemas, decision 0037): the MCP qualify tool advertises and validates with it too. */

import { publicSchemas } from '@rde/proto';
import { jsonObject } from '../../contract';

export const { QUALIFY_MAX_CANDIDATES, qualifyBody } = publicSchemas;

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
