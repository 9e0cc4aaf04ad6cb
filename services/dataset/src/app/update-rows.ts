import { errors } from '@rde/platform';
import type { DatasetRecord } from '../domain/dataset';
import { columnsOf, type Row } from '../domain/rows';
import { findDataset, type DatasetContext } from './dataset-context';

/** Rows replaced in place (an enrichment writing its results), and the enrich status. */
export class UpdateRows {
  constructor(private readonly context: DatasetContext) {}

  /**
   * Replaces rows of a dataset of this workspace at their positions (inside the dataset), and its
   * enrich status when one is given.
   */
  async updateRows(
    workspaceId: string,
    id: string,
    rows: readonly { index: number; row: Row }[],
    enrichStatus: string,
  ) {
    const record = await findDataset(this.context, workspaceId, id);
    const outside = rows.find(({ index }) => !Number.isInteger(index) || index < 0 || index >= record.rowCount);
    if (outside)
      throw errors.badRequest({ detail: `row ${outside.index} is outside the dataset (${record.rowCount} rows)` });
    await this.context.rows.replace(id, rows);
    await this.addColumns(workspaceId, record, columnsOf(rows.map(({ row }) => row)));
    if (enrichStatus) await this.context.datasets.setEnrichStatus(id, enrichStatus);
  }

  /** The rows' new keys (an enrichment's results) join the columns, so the CSV export carries them. */
  private async addColumns(workspaceId: string, record: DatasetRecord, keys: string[]): Promise<void> {
    for (let held = record; ; held = await findDataset(this.context, workspaceId, record.id)) {
      const columns = [...new Set([...held.columns, ...keys])];
      if (columns.length === held.columns.length) return;
      if (await this.context.datasets.widenColumns(record.id, held.columns, columns)) return;
    }
  }
}
