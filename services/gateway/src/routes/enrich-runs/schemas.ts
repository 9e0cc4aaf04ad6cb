import { errorBody, jsonObject, sessionId, pathParamsSchema } from '../../contract';
import { ENRICH_CAPABILITIES } from '../enrich/schemas';
import { credits } from '../waterfall-meta';

/**
 * JSON schemas of the dataset enrichment runs (spec "Dataset enrichment runs", decision 0031). The
 * gateway checks the envelope; the waterfall service checks the same again for direct RPC callers,
 * and the rules across fields (in_place needs an input dataset) in the spec's 422 body.
 */

/** Rows an `input_rows` run may carry; larger inputs go into a dataset first. */
const MAX_INPUT_ROWS = 10_000;
/**
 * A 10,000-row input_rows body is larger than the gateway's default body limit; the bound is the
 * dataset upload's, under gRPC's 4 MB message (a larger body is 413, not a failed call).
 */
export { CREATE_BODY_LIMIT_BYTES as RUN_BODY_LIMIT_BYTES } from '../datasets/schemas';

const capability = { type: 'string', enum: ENRICH_CAPABILITIES } as const;

const name = { type: 'string', pattern: '^[a-z0-9_-]{1,64}$' } as const;
/** A row column an argument is read from: its name, or `{column}`. */
const column = {
  anyOf: [
    { type: 'string', minLength: 1, maxLength: 200 },
    {
      type: 'object',
      properties: { column: { type: 'string', minLength: 1, maxLength: 200 } },
      required: ['column'],
      additionalProperties: false,
    },
  ],
} as const;

/**
 * A step: a capability by name or as `{capability}` (the spec's `specs`/`waterfalls` spell it so
 * too), or a catalog method, `"tool.method"` or `{tool, method, args}` with each parameter mapped
 * from a row column (decision 0031; the service checks it against the method's declaration).
 */
const step = {
  anyOf: [
    capability,
    {
      type: 'object',
      properties: { capability },
      required: ['capability'],
      additionalProperties: false,
    },
    { type: 'string', pattern: '^[a-z0-9_-]{1,64}\\.[a-z0-9_]{1,64}$', description: 'tool.method' },
    {
      type: 'object',
      properties: {
        tool: name,
        method: { type: 'string', pattern: '^[a-z0-9_]{1,64}$' },
        args: { type: 'object', maxProperties: 50, additionalProperties: column },
      },
      required: ['tool', 'method'],
      additionalProperties: false,
    },
  ],
} as const;

const steps = {
  type: 'array',
  minItems: 1,
  maxItems: ENRICH_CAPABILITIES.length,
  items: step,
  uniqueItems: true,
  description: 'the capabilities or tool.method steps to run, in order (each at most once)',
} as const;

const flag = (description: string) => ({ type: 'boolean', description }) as const;

export const runBody = {
  type: 'object',
  properties: {
    input: { type: 'string', pattern: '^ds_[A-Za-z0-9_-]{1,190}$', description: 'a `ds_` dataset of this workspace' },
    input_rows: {
      type: 'array',
      minItems: 1,
      maxItems: MAX_INPUT_ROWS,
      items: { ...jsonObject(), maxProperties: 200 },
    },
    steps,
    specs: steps,
    waterfalls: steps,
    range: {
      type: 'string',
      pattern: '^[0-9]{0,9}:[0-9]{0,9}$',
      description: '`START:END` row positions, END exclusive; the other rows pass through untouched',
    },
    in_place: flag('write the enriched rows back into the input dataset'),
    output_name: { type: 'string', minLength: 1, maxLength: 200, description: 'name of the new dataset' },
    estimate: flag('price the run; nothing is held, charged or called'),
    dry_run: flag('the plan per step; nothing is held, charged or called'),
    preview: flag("the first rows' resolved inputs per step; nothing is held, charged or called"),
    detach: flag('answer within about 20 s with the finished run or a handle to poll'),
    session_id: sessionId,
  },
  allOf: [
    { oneOf: [{ required: ['input'] }, { required: ['input_rows'] }] },
    { oneOf: [{ required: ['steps'] }, { required: ['specs'] }, { required: ['waterfalls'] }] },
    // in_place writes into the input dataset: input_rows have none, and output_name names a new one.
    { not: { properties: { in_place: { const: true } }, required: ['in_place', 'input_rows'] } },
    { not: { properties: { in_place: { const: true } }, required: ['in_place', 'output_name'] } },
  ],
  additionalProperties: false,
} as const;

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
