import { errors, type Handlers, workspaceCallerOf } from '@rde/platform';
import { dataset } from '@rde/proto';
import type { AppendRows } from '../app/append-rows';
import type { CreateDataset } from '../app/create-dataset';
import type { DeleteDataset } from '../app/delete-dataset';
import type { ReadDatasets } from '../app/read-datasets';
import type { UpdateRows } from '../app/update-rows';
import type { DatasetRecord } from '../domain/dataset';
import { parseRow, parseRows } from '../domain/rows';

const json = (value: unknown) => Buffer.from(JSON.stringify(value));

/** The dataset use cases, one per file of app/. */
export interface DatasetUseCases {
  readonly creation: CreateDataset;
  readonly appending: AppendRows;
  readonly reading: ReadDatasets;
  readonly updating: UpdateRows;
  readonly deletion: DeleteDataset;
}

/** Proto ⇄ domain only; every RPC acts on the calling workspace. */
export function datasetHandlers({
  creation,
  appending,
  reading,
  updating,
  deletion,
}: DatasetUseCases): Handlers<typeof dataset.DatasetServiceService> {
  return {
    async createDataset(request, context) {
      const caller = workspaceCallerOf(context);
      const { record, sample } = await creation.create({
        workspaceId: caller.workspaceId,
        createdBy: caller.userId,
        id: request.datasetId,
        name: request.name,
        rows: request.copyOfDatasetId ? noRows(request.rowsJson) : parseRows(request.rowsJson),
        bytes: request.rowsJson.length,
        sessionId: request.sessionId || caller.sessionId,
        source: request.source,
        runId: request.runId,
        copyOf: request.copyOfDatasetId,
      });
      return { dataset: toProto(record), sampleJson: json(sample) };
    },

    async listDatasets(request, context) {
      const { records, total, page } = await reading.list(
        workspaceCallerOf(context).workspaceId,
        request.sessionId,
        request.page,
      );
      return { datasets: records.map(toProto), page: { ...page, total } };
    },

    async getDataset(request, context) {
      return { dataset: toProto(await reading.get(workspaceCallerOf(context).workspaceId, request.datasetId)) };
    },

    async deleteDataset(request, context) {
      await deletion.delete(workspaceCallerOf(context).workspaceId, request.datasetId);
      return { datasetId: request.datasetId };
    },

    async getRows(request, context) {
      const { rows, page, total } = await reading.rowPage(
        workspaceCallerOf(context).workspaceId,
        request.datasetId,
        request.page,
      );
      // Rows are stored as JSON text: the page is joined, never parsed and re-encoded.
      return { rowsJson: Buffer.from(`[${rows.join(',')}]`), page: { ...page, total } };
    },

    async updateRows(request, context) {
      const rows = request.rows.map(({ index, rowJson }) => ({ index: Number(index), row: parseRow(rowJson) }));
      await updating.updateRows(workspaceCallerOf(context).workspaceId, request.datasetId, rows, request.enrichStatus);
      return {};
    },

    async appendRows(request, context) {
      const record = await appending.append({
        workspaceId: workspaceCallerOf(context).workspaceId,
        id: request.datasetId,
        offset: Number(request.offset),
        rows: parseRows(request.rowsJson),
        bytes: request.rowsJson.length,
      });
      return { dataset: toProto(record) };
    },

    async *exportCsv(request, context) {
      for await (const chunk of await reading.csv(workspaceCallerOf(context).workspaceId, request.datasetId))
        yield { chunk };
    },
  };
}

/** A copy takes its rows from its source dataset only. */
function noRows(rowsJson: Uint8Array): [] {
  if (rowsJson.length > 0)
    throw errors.badRequest({ detail: 'rows_json must be empty when copy_of_dataset_id is given' });
  return [];
}

function toProto(record: DatasetRecord): dataset.Dataset {
  return {
    id: record.id,
    workspaceId: record.workspaceId,
    name: record.name,
    columns: record.columns,
    rowCount: record.rowCount,
    sessionId: record.sessionId,
    createdByUserId: record.createdBy,
    createdAtMs: record.createdAt,
    source: record.source,
    runId: record.runId,
    enrichStatus: record.enrichStatus,
  };
}
