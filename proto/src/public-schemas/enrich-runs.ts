import { jsonObject, sessionId } from './common';
import { DATASET_MAX_ROWS } from './datasets';
import { ENRICH_CAPABILITIES } from './enrich';

/**
 * The dataset enrichment run's request (spec "Dataset enrichment runs", decision 0031). The gateway
 * checks the envelope; the waterfall service checks the same again for direct RPC callers, and the
 * rules across fields (in_place needs an input dataset) in the spec's 422 body.
 */

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

/** `POST /enrich/run` (spec "Dataset enrichment runs"): the gateway's route and the workflow step `enrich.run`. */
export const enrichRunBody = {
  type: 'object',
  properties: {
    input: { type: 'string', pattern: '^ds_[A-Za-z0-9_-]{1,190}$', description: 'a `ds_` dataset of this workspace' },
    input_rows: {
      type: 'array',
      minItems: 1,
      maxItems: DATASET_MAX_ROWS, // larger inputs go into a dataset first
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
