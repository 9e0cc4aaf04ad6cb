/**
 * JSON schemas of the search routes. The gateway checks the envelope and the size of every value;
 * the waterfall service binds the filters (synonyms, nested or flat) and checks each one's type,
 * so other callers of its RPC get the same answers.
 */

import { publicSchemas } from '@rde/proto';
import { jsonObject, pathParamsSchema } from '../../contract';
import { credits, runMeteringProperties, warnings } from '../waterfall-meta';

const anyObject = jsonObject();

/** The request schemas are the shared public contract (decision 0037): the MCP search tool's too. */
export const { searchBody } = publicSchemas;
export const toolBody = publicSchemas.searchToolBody;

export const capabilityParams = pathParamsSchema('capability', { enum: ['people_search'] });

const step = {
  type: 'object',
  properties: {
    step: { type: 'string', description: '<tool>.<method>' },
    outcome: {
      type: ['string', 'null'],
      description: 'null when the step ran and kept rows; otherwise why it gave none',
    },
    charged: credits,
    counts: {
      type: 'object',
      properties: {
        returned: { type: 'integer' },
        new: { type: 'integer' },
        charged: { type: 'integer' },
        pages: { type: 'integer' },
      },
      required: ['returned', 'new', 'charged', 'pages'],
    },
    unsupported_fields: { type: 'array', items: { type: 'string' } },
    verify_dropped: { type: 'integer' },
    filters_relaxed: { type: 'array', items: { type: 'string' } },
    detail: { type: 'string' },
  },
  required: ['step', 'outcome', 'charged', 'counts'],
} as const;

const meta = {
  type: 'object',
  properties: {
    ...runMeteringProperties,
    would_charge_credits: credits,
    ignored_query_keys: { type: 'array', items: { type: 'string' } },
    warnings,
  },
} as const;

export const searchResult = {
  type: 'object',
  properties: {
    results: { type: 'array', items: { ...anyObject, properties: { _source: { type: 'string' } } } },
    steps: { type: 'array', items: step },
    hit: { type: 'boolean' },
    dry_run: { type: 'boolean' },
    chain: { type: 'array', items: anyObject, description: 'dry run and preview: the steps that would run' },
    _meta: meta,
  },
  required: ['results', 'steps', 'hit', '_meta'],
} as const;
