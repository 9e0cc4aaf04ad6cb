/** JSON schemas of the tools routes: they validate requests (422 on failure) and feed /openapi.json. */

import { publicSchemas } from '@rde/proto';
import { pathParam, pathParamsSchema } from '../../contract';

const anyObject = { type: 'object', additionalProperties: true } as const;

const cost = {
  type: 'object',
  description: 'credits and usd per unit; unit is call, record (per returned row) or hit (a miss is free)',
  properties: {
    credits: { type: 'number' },
    usd: { type: 'number' },
    unit: { type: 'string', enum: ['call', 'record', 'hit'] },
    note: { type: 'string' },
  },
  required: ['credits', 'usd', 'unit', 'note'],
} as const;

const input = {
  type: 'object',
  properties: {
    name: { type: 'string' },
    type: { type: 'string' },
    required: { type: 'boolean' },
    description: { type: 'string' },
  },
  required: ['name', 'type', 'required', 'description'],
} as const;

/** The tool contract of one method (GET /tools/{tool}/{method}). */
export const methodContract = {
  type: 'object',
  properties: {
    tool: { type: 'string' },
    method: { type: 'string' },
    description: { type: 'string' },
    http: { type: 'string' },
    path: { type: 'string' },
    inputs: { type: 'array', items: input },
    cost,
    payload_schema: { ...anyObject, description: 'present when the method sends the vendor one JSON body' },
    access: { type: 'string', enum: ['own_key_required', 'unavailable'] },
    accepts_vendor_options: { type: 'boolean' },
    capabilities: anyObject,
    resolved_from: { type: 'string', description: 'the flat `<tool>_<method>` name this view was resolved from' },
  },
  required: [
    'tool',
    'method',
    'description',
    'http',
    'path',
    'inputs',
    'cost',
    'accepts_vendor_options',
    'capabilities',
  ],
} as const;

const toolHeader = {
  name: { type: 'string' },
  kind: { type: 'string' },
  module: { type: 'string' },
  description: { type: 'string' },
  method_count: { type: 'integer' },
  chain: {
    type: 'array',
    items: { type: 'string' },
    description: 'a waterfall only: its steps in walking order, as `<tool>.<method>`',
  },
} as const;

const methodSummary = {
  type: 'object',
  properties: { name: { type: 'string' }, description: { type: 'string' }, cost },
  required: ['name', 'description', 'cost'],
} as const;

/** A tool as the listing shows it. */
const toolEntry = {
  type: 'object',
  properties: { ...toolHeader, methods: { type: 'array', items: methodSummary } },
  required: ['name', 'kind', 'module', 'description', 'method_count', 'methods'],
} as const;

/** A tool with the full contract of every method (GET /tools/{tool}). */
export const toolDetail = {
  type: 'object',
  properties: {
    ...toolHeader,
    methods: { type: 'array', items: methodContract },
    steps: {
      type: 'array',
      description: 'a waterfall only: each step in walking order, with what a hit on it costs',
      items: { ...methodSummary, properties: { step: { type: 'string' }, ...methodSummary.properties } },
    },
  },
  required: toolEntry.required,
} as const;

export const toolList = {
  type: 'object',
  properties: {
    count: { type: 'integer' },
    tools: { type: 'array', items: { type: 'string' } },
    results: { type: 'array', items: toolEntry },
    filter: { type: ['string', 'null'] },
  },
  required: ['count', 'tools', 'results', 'filter'],
} as const;

export const listQuery = {
  type: 'object',
  properties: {
    filter: { type: 'string', maxLength: 200, description: 'narrows by tool, kind, module or method name' },
  },
  additionalProperties: false,
} as const;

export const toolParams = pathParamsSchema('tool', { examples: ['pplgraph', 'pplgraph_search'] });

/** The call route's path and body are the shared public contract (decision 0037): the MCP call tool's too. */
export const { methodParams, callBody } = publicSchemas;

/**
 * The same parameters with a real method as the example, for reading its contract. A call's body
 * is checked against the method's own payload schema (400 `invalid_payload`), which this generic
 * route cannot declare, so the call route gives no example a fuzzer would fill with a random body.
 */
export const contractParams = {
  ...methodParams,
  properties: {
    tool: pathParam({ examples: ['pplgraph'] }),
    method: pathParam({ examples: ['search'] }),
  },
} as const;

const credits = { type: 'number', description: 'credits' } as const;

export const meta = {
  type: 'object',
  properties: {
    credits_charged: credits,
    balance: credits,
    reserved: credits,
    run_id: { type: 'string' },
    settled: { type: 'boolean' },
    dataset_id: { type: 'string' },
    row_count: { type: 'integer' },
    would_charge_credits: credits,
    would_charge_credits_max: credits,
    would_call: { type: 'string' },
  },
} as const;

/** The provider's answer (or the dry-run resolution) with `_meta`. */
export const callResult = {
  type: 'object',
  properties: { _meta: meta },
  required: ['_meta'],
  additionalProperties: true,
} as const;
