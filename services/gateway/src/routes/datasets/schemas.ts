/** JSON schemas of the dataset routes: they validate requests (422 on failure) and feed /openapi.json. */

import { publicSchemas } from '@rde/proto';
import { jsonObject, pageOffset, pageSchema, pathParamsSchema, sessionId } from '../../contract';

/** A POST stays under gRPC's default 4 MiB message once its rows are re-encoded for the dataset service. */
export const CREATE_BODY_LIMIT_BYTES = 3 * 1024 * 1024;

const optionalText = { type: ['string', 'null'] } as const;

/** A row is any JSON object; every key is kept. */
const row = jsonObject();

const datasetProperties = {
  id: { type: 'string', description: '`ds_` id' },
  name: { type: 'string' },
  columns: { type: 'array', items: { type: 'string' }, description: 'every row key, in the order first seen' },
  row_count: { type: 'integer' },
  created_at: { type: 'string', format: 'date-time' },
  session_id: { ...optionalText, description: 'the agent session it belongs to' },
  created_by: { ...optionalText, description: 'user id of its creator' },
  source: { ...optionalText, description: 'where paid rows came from, e.g. tool:people_db_a.search; null for uploads' },
  run_id: optionalText,
  enrich_status: { type: 'string', description: '"none" until an enrichment run touches it' },
} as const;

export const datasetSchema = {
  type: 'object',
  properties: datasetProperties,
  required: Object.keys(datasetProperties),
} as const;

export const createdSchema = {
  type: 'object',
  properties: { ...datasetProperties, sample: { type: 'array', items: row, description: 'the first five rows' } },
  required: [...Object.keys(datasetProperties), 'sample'],
} as const;

/** The request bodies and the rows page's query are the public contract's (the workflow steps take them too). */
export const {
  datasetCreateBody: createBody,
  datasetAppendBody: appendBody,
  datasetRowsQuery: rowsQuery,
} = publicSchemas;

export const datasetParams = pathParamsSchema('ds_id', { description: '`ds_` id' });

const offset = pageOffset;

export const listQuery = {
  type: 'object',
  properties: {
    session_id: { ...sessionId, default: '', description: 'only the datasets of this session' },
    offset,
    limit: { type: 'integer', minimum: 1, maximum: 100, default: 10 },
  },
} as const;

export const listSchema = pageSchema('datasets', datasetSchema);

export const rowsSchema = pageSchema('rows', row);

export const csvResponse = {
  description: 'the header line (the columns), then one line per row; nested values are JSON in their cell',
  content: { 'text/csv': { schema: { type: 'string' } } },
} as const;
