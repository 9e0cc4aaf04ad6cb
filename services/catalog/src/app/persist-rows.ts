import type { Caller } from '@rde/platform';
import type { DatasetClient } from '../clients';
import type { ResolvedMethod } from '../domain/catalog';
import { datasetIdOf } from '../domain/ids';
import type { JsonObject } from '../domain/parameters';
import { INLINE_ROW_CAP, replaceAt, SAMPLE_SIZE } from '../domain/rows';
import type { PersistedDataset } from './tool-call-result';

/** What persisting needs of a paid call. */
export interface PaidCall {
  readonly id: string;
  readonly caller: Caller;
  readonly target: ResolvedMethod;
  readonly name: string;
}

/** Rows persisted to a dataset, and what the response shows of them. */
interface PersistedRows {
  readonly datasetId: string;
  readonly rowCount: number;
  readonly result: JsonObject;
  readonly dataset?: PersistedDataset;
}

/**
 * Every paid row list goes to a dataset. Up to INLINE_ROW_CAP rows also stay inline as the vendor
 * sent them; above it the row list is cut to a five-row sample and the dataset is named beside
 * it (the answer shows it in place of the list), and the vendor's metadata beside it (totals,
 * pagination, track ids) stays as it was.
 */
export async function persistRows(
  dataset: DatasetClient,
  run: PaidCall,
  body: JsonObject,
  rows: JsonObject[],
): Promise<PersistedRows> {
  const datasetId = datasetIdOf(run.id);
  const created = await dataset.createDataset(
    {
      datasetId,
      name: `${run.name} ${run.id}`,
      rowsJson: Buffer.from(JSON.stringify(rows)),
      source: `tool:${run.name}`,
      runId: run.id,
      sessionId: run.caller.sessionId,
      copyOfDatasetId: '',
    },
    { caller: run.caller },
  );
  if (rows.length <= INLINE_ROW_CAP) return { datasetId, rowCount: rows.length, result: body };
  const rowsPath = run.target.method.rows!.path;
  const meta = created.dataset!;
  return {
    datasetId,
    rowCount: rows.length,
    result: replaceAt(body, rowsPath, rows.slice(0, SAMPLE_SIZE)),
    dataset: {
      rowsPath,
      id: meta.id,
      name: meta.name,
      columns: meta.columns,
      rowCount: meta.rowCount,
      createdAtMs: meta.createdAtMs,
      sessionId: meta.sessionId,
    },
  };
}
