/**
 * JSON schemas of the search routes. The gateway checks the envelope and the size of every value;
 * the waterfall service binds the filters (synonyms, nested or flat) and checks each one's type,
 * so other callers of its RPC get the same answers.
 */

import { jsonObject, pathParam, sessionId } from '../../contract';
import { credits, runMeteringProperties, warnings } from '../waterfall-meta';

const anyObject = jsonObject();

const text = { type: 'string', maxLength: 500 } as const;

/** What any filter value may be at most: a text, a number, a flag, a list of up to 100 texts, a small object. */
const filterValue = {
  anyOf: [
    text,
    { type: 'number' },
    { type: 'boolean' },
    { type: 'array', maxItems: 100, items: { anyOf: [text, { type: 'number' }] } },
    {
      type: 'object',
      maxProperties: 10,
      additionalProperties: { anyOf: [text, { type: 'number' }] },
      propertyNames: { not: { const: '__proto__' } },
    },
  ],
} as const;

const limit = {
  type: 'integer',
  minimum: 1,
  maximum: 1000,
  description: 'total people wanted (default 25)',
} as const;

/** The envelope keys: never filters. */
const envelope = {
  query: {
    type: 'object',
    maxProperties: 40,
    additionalProperties: filterValue,
    propertyNames: { not: { const: '__proto__' } },
    description: 'filters; an explicit query wins over the same filter given flat at the top level',
  },
  coverage: {
    type: 'string',
    enum: ['single', 'max'],
    description: '`single` (default) stops once `limit` people are collected; `max` runs every source',
  },
  limit,
  providers: {
    type: 'array',
    minItems: 1,
    maxItems: 20,
    items: { type: 'string', minLength: 1, maxLength: 100 },
    description: 'narrows or reorders the chain (tool names)',
  },
  dry_run: { type: 'boolean', description: 'the chain that would run and its worst case; no vendor call, no charge' },
  preview: { type: 'boolean', description: 'the same as dry_run' },
  session_id: sessionId,
  workflow_run_id: { type: 'string', maxLength: 200 },
} as const;

/** POST /search/people_search: the envelope, and filters flat at the top level. */
export const searchBody = {
  type: 'object',
  properties: envelope,
  maxProperties: 60,
  additionalProperties: filterValue,
  propertyNames: { not: { const: '__proto__' } },
} as const;

/** POST /tools/people_search: the search as a tool takes `payload` (the same body) and `dry_run`. */
export const toolBody = {
  type: 'object',
  properties: {
    payload: { ...searchBody, description: 'the search: filters and envelope keys' },
    rows: { type: 'array', maxItems: 100, description: 'refused: a search waterfall takes payload only' },
    dry_run: { type: 'boolean' },
  },
  additionalProperties: false,
} as const;

export const capabilityParams = {
  type: 'object',
  properties: { capability: pathParam({ enum: ['people_search'] }) },
  required: ['capability'],
} as const;

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
