import { jsonObject, pathParam } from './common';
import { datasetAppendBody, datasetCreateBody, datasetRowsQuery } from './datasets';

/**
 * The workflow definition's fixed JSON Schema (decision 0072): the apply route validates with it,
 * /openapi.json documents it, GET /api/v2/workflows/schema answers it, and the workflow service's
 * lint checks it first (decision 0073).
 */

/** Bounds that keep a definition, and every run of it, small enough to check and to store. */
export const WORKFLOW_LIMITS = {
  steps: 50,
  /** Items a `for_each` step may run over; `max_items` may lower it, never raise it. */
  forEachItems: 100,
  nameLength: 100,
  descriptionLength: 2_000,
  /** Objects and arrays nested inside one `if` condition, and its nodes. */
  conditionDepth: 16,
  conditionNodes: 100,
} as const;

export const WORKFLOW_TRIGGER_TYPES = ['manual', 'webhook'] as const;
/** What a failing step does to its run: stop it (default) or record the error and go on. */
export const WORKFLOW_ON_ERROR = ['fail', 'continue'] as const;

const NAME_PATTERN = '^[A-Za-z0-9][A-Za-z0-9_.-]*$';
const STEP_ID_PATTERN = '^[A-Za-z_][A-Za-z0-9_]*$';

/** Any JSON value; references live in its strings. */
const value = {};

const step = {
  type: 'object',
  properties: {
    id: {
      type: 'string',
      minLength: 1,
      maxLength: 64,
      pattern: STEP_ID_PATTERN,
      description: 'unique in the workflow',
    },
    uses: {
      type: 'string',
      minLength: 1,
      maxLength: 200,
      description:
        'what the step calls: `<tool>.<method>`, `search.people_search`, `enrich.<capability>`, `enrich.run` (a dataset enrichment run, waited for to its end), `qualify`, or a free dataset operation `dataset.create`, `dataset.append`, `dataset.rows` (GET /api/v2/workflows/schema?subject=<uses> gives its input schema)',
    },
    with: {
      ...jsonObject(),
      description: "the call's input; strings may hold `{{input.…}}`, `{{steps.<id>.output.…}}`, `{{run.id}}`",
    },
    if: {
      ...value,
      description: 'a data-only condition: {"==": [a, b]}, {"and": [...]}, …; the step is skipped when false',
    },
    for_each: {
      type: 'object',
      properties: {
        items: { ...value, description: 'a reference to an array, or an array; `{{item.…}}` is one of them' },
        max_items: { type: 'integer', minimum: 1, maximum: WORKFLOW_LIMITS.forEachItems },
      },
      required: ['items'],
      additionalProperties: false,
    },
    on_error: {
      enum: WORKFLOW_ON_ERROR,
      description: '`fail` (default) stops the run; `continue` records the error and goes on',
    },
  },
  required: ['id', 'uses'],
  additionalProperties: false,
} as const;

/** The definition's JSON Schema (GET /api/v2/workflows/schema). */
export const workflowDefinitionSchema = {
  title: 'RDE workflow definition',
  type: 'object',
  properties: {
    name: { type: 'string', minLength: 1, maxLength: WORKFLOW_LIMITS.nameLength, pattern: NAME_PATTERN },
    description: { type: 'string', maxLength: WORKFLOW_LIMITS.descriptionLength },
    trigger: {
      type: 'object',
      properties: { type: { enum: WORKFLOW_TRIGGER_TYPES } },
      required: ['type'],
      additionalProperties: false,
    },
    input: {
      type: 'object',
      properties: { schema: { ...jsonObject(), description: 'a JSON Schema (draft-07) of the run input' } },
      required: ['schema'],
      additionalProperties: false,
    },
    steps: { type: 'array', minItems: 1, maxItems: WORKFLOW_LIMITS.steps, items: step },
    output: { ...jsonObject(), description: 'the run output; values may reference the input and the steps' },
  },
  required: ['name', 'trigger', 'steps'],
  additionalProperties: false,
} as const;

const WORKFLOW_REFERENCE = { type: 'string', minLength: 1, maxLength: 100 } as const;

/** `POST /workflows/call`: exactly one of the four workflow keys is checked by the service (422). */
export const workflowCallBody = {
  type: 'object',
  properties: {
    workflow: { ...WORKFLOW_REFERENCE, description: 'a `wf_` id or a name' },
    workflow_id: { ...WORKFLOW_REFERENCE, description: '`wf_` id' },
    workflow_name: { ...WORKFLOW_REFERENCE, description: 'the workflow name' },
    name: { ...WORKFLOW_REFERENCE, description: 'the workflow name' },
    input: jsonObject('the run input, checked against the input schema of the latest version'),
    payload: jsonObject('the same as input (send one of the two)'),
    mode: {
      enum: ['live', 'dry_run', 'smoke_test'],
      default: 'live',
      description: '`live` bills; `dry_run` calls no vendor and estimates; `smoke_test` runs live on one item',
    },
    source: { type: 'string', minLength: 1, maxLength: 100, description: 'who started the run (default `api`)' },
  },
  additionalProperties: false,
} as const;

/** The dataset a `dataset.append` or `dataset.rows` step works on: the routes' `{ds_id}`, in `with`. */
function onDataset<const Schema extends { properties: object; required?: readonly string[] }>(schema: Schema) {
  return {
    type: 'object',
    properties: {
      dataset_id: pathParam({ description: '`ds_` id of a dataset of this workspace' }),
      ...schema.properties,
    },
    required: ['dataset_id', ...(schema.required ?? [])],
    additionalProperties: false,
  } as const;
}

/**
 * What the free dataset steps take in `with` (decision 0088): the body of `POST /api/v2/datasets`,
 * of `POST /api/v2/datasets/{ds_id}/rows` and the query of its GET, with the dataset as `dataset_id`.
 */
export const workflowDatasetSteps = {
  'dataset.create': datasetCreateBody,
  'dataset.append': onDataset(datasetAppendBody),
  'dataset.rows': onDataset(datasetRowsQuery),
} as const;
