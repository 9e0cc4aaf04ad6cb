import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { publicJson, publicRoutes } from '@rde/proto';
import { deletedBody, errorResponses } from '../../contract';
import type { GatewayDependencies } from '../../dependencies';
import { bytesOf, started } from '../../streams';
import {
  appendBody,
  CREATE_BODY_LIMIT_BYTES,
  createBody,
  createdSchema,
  csvResponse,
  datasetParams,
  datasetSchema,
  listQuery,
  listSchema,
  rowsQuery,
  rowsSchema,
} from './schemas';

const { ROUTES, routerPath } = publicRoutes;

/** A CSV download runs as long as the client reads; the deadline only stops a stream left hanging. */
const CSV_DEADLINE_MS = 30 * 60_000;

/** 400: a `session_id` that is not a `ses_` id. */
const sessionErrors = errorResponses(400);
/** 409: the workspace's dataset quotas (count, rows, bytes) have no room for it. */
const quotaErrors = errorResponses(409);

interface DatasetParams {
  ds_id: string;
}

/** Datasets: create from inline rows, append rows, list, read, page rows, export CSV, delete. */
export async function datasetRoutes(app: FastifyInstance, deps: GatewayDependencies): Promise<void> {
  const datasets = deps.clients.dataset;

  app.post<{ Body: { name?: string; rows: object[]; session_id?: string } }>(
    ROUTES.datasets,
    {
      bodyLimit: CREATE_BODY_LIMIT_BYTES,
      schema: { body: createBody, response: { 201: createdSchema, ...sessionErrors, ...quotaErrors } },
    },
    async (request, reply) => {
      const { body, caller } = request;
      const created = await datasets.createDataset(
        {
          datasetId: '',
          name: body.name ?? '',
          rowsJson: Buffer.from(JSON.stringify(body.rows)),
          sessionId: body.session_id ?? '',
          source: '',
          runId: '',
          copyOfDatasetId: '',
        },
        { caller },
      );
      return reply
        .code(201)
        .send({ ...publicJson.datasetRecord(created.dataset!), sample: parseJson(created.sampleJson) });
    },
  );

  /**
   * Appends rows (decision 0047): datasets past one create's 10,000 rows are built this way. 409:
   * `offset` is not the dataset's row count, another append of it is under way, or the quota is full.
   */
  app.post<{ Params: DatasetParams; Body: { rows: object[]; offset?: number } }>(
    routerPath(ROUTES.datasetRows),
    {
      bodyLimit: CREATE_BODY_LIMIT_BYTES,
      schema: { params: datasetParams, body: appendBody, response: { 200: datasetSchema, ...quotaErrors } },
    },
    async (request) => {
      const { params, body, caller } = request;
      const offset =
        body.offset ?? Number((await datasets.getDataset({ datasetId: params.ds_id }, { caller })).dataset!.rowCount);
      const appended = await datasets.appendRows(
        { datasetId: params.ds_id, offset, rowsJson: Buffer.from(JSON.stringify(body.rows)) },
        { caller },
      );
      return publicJson.datasetRecord(appended.dataset!);
    },
  );

  app.get<{ Querystring: { session_id: string; offset: number; limit: number } }>(
    ROUTES.datasets,
    { schema: { querystring: listQuery, response: { 200: listSchema, ...sessionErrors } } },
    async (request) => {
      const { session_id: sessionId, offset, limit } = request.query;
      const listed = await datasets.listDatasets({ sessionId, page: { offset, limit } }, { caller: request.caller });
      return { datasets: listed.datasets.map(publicJson.datasetRecord), ...listed.page };
    },
  );

  app.get<{ Params: DatasetParams }>(
    routerPath(ROUTES.dataset),
    { schema: { params: datasetParams, response: { 200: datasetSchema } } },
    async (request) => {
      const found = await datasets.getDataset({ datasetId: request.params.ds_id }, { caller: request.caller });
      return publicJson.datasetRecord(found.dataset!);
    },
  );

  app.delete<{ Params: DatasetParams }>(
    routerPath(ROUTES.dataset),
    { schema: { params: datasetParams, response: { 200: deletedBody } } },
    async (request) => {
      const deleted = await datasets.deleteDataset({ datasetId: request.params.ds_id }, { caller: request.caller });
      return { ok: true, deleted: deleted.datasetId };
    },
  );

  app.get<{ Params: DatasetParams; Querystring: { offset: number; limit: number } }>(
    routerPath(ROUTES.datasetRows),
    { schema: { params: datasetParams, querystring: rowsQuery, response: { 200: rowsSchema } } },
    async (request) => {
      const { offset, limit } = request.query;
      const page = await datasets.getRows(
        { datasetId: request.params.ds_id, page: { offset, limit } },
        { caller: request.caller },
      );
      return { rows: parseJson(page.rowsJson), ...page.page };
    },
  );

  app.get<{ Params: DatasetParams }>(
    '/api/v2/datasets/:ds_id/csv',
    { schema: { params: datasetParams, response: { 200: csvResponse } } },
    async (request, reply) => {
      const id = request.params.ds_id;
      const chunks = await started(
        datasets.exportCsv({ datasetId: id }, { caller: request.caller, deadlineMs: CSV_DEADLINE_MS }),
      );
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${id}.csv"`)
        .send(Readable.from(bytesOf(chunks)));
    },
  );
}

function parseJson(bytes: Uint8Array): unknown {
  return JSON.parse(Buffer.from(bytes).toString('utf8'));
}
