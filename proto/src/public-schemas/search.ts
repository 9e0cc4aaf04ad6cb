import { sessionId } from './common';

/**
 * People search requests (spec "Search"). The envelope and the size of every value are checked
 * here; the waterfall service binds the filters (synonyms, nested or flat) and checks each one's
 * type, so other callers of its RPC get the same answers.
 */

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

/** `POST /search/people_search`: the envelope, and filters flat at the top level. */
export const searchBody = {
  type: 'object',
  properties: envelope,
  maxProperties: 60,
  additionalProperties: filterValue,
  propertyNames: { not: { const: '__proto__' } },
} as const;

/** `POST /tools/people_search`: the search as a tool takes `payload` (the same body) and `dry_run`. */
export const searchToolBody = {
  type: 'object',
  properties: {
    payload: { ...searchBody, description: 'the search: filters and envelope keys' },
    rows: { type: 'array', maxItems: 100, description: 'refused: a search waterfall takes payload only' },
    dry_run: { type: 'boolean' },
  },
  additionalProperties: false,
} as const;
