import { INT32_MAX, jsonObject, pageOffset, sessionId } from './common';

/**
 * Dataset requests (spec "Datasets"): the gateway's routes validate with these, and the workflow
 * service's `dataset.*` steps take the same bodies (decision 0088).
 */

/** Rows one create or one append takes. */
export const DATASET_MAX_ROWS = 10_000;

/** A row is any JSON object; every key is kept. */
const row = jsonObject();
const rows = { type: 'array', minItems: 1, maxItems: DATASET_MAX_ROWS, items: row } as const;

/** `POST /api/v2/datasets`. */
export const datasetCreateBody = {
  type: 'object',
  properties: {
    name: { type: 'string', maxLength: 200, description: 'defaults to the dataset id' },
    rows,
    session_id: { ...sessionId, description: '`ses_` id; defaults to the session of the request' },
  },
  required: ['rows'],
  additionalProperties: false,
} as const;

/** `POST /api/v2/datasets/{ds_id}/rows`: rows appended at `offset` (default: its row count). */
export const datasetAppendBody = {
  type: 'object',
  properties: {
    rows,
    offset: {
      type: 'integer',
      minimum: 0,
      maximum: INT32_MAX,
      description:
        "position of the first row: the dataset's row_count as last read. Given, a retry is safe (rows it already holds are kept); left out, the rows go after the current last row",
    },
  },
  required: ['rows'],
  additionalProperties: false,
} as const;

/** `GET /api/v2/datasets/{ds_id}/rows`: a page of rows. */
export const datasetRowsQuery = {
  type: 'object',
  properties: { offset: pageOffset, limit: { type: 'integer', minimum: 1, maximum: 1000, default: 50 } },
} as const;
