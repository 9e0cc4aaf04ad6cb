import { createHash } from 'node:crypto';
import { httpError } from '@rde/platform';
import type { DatasetRecord } from '../domain/dataset';
import { quotaExceeded, type Usage } from '../domain/quota';
import { columnsOf, type Row } from '../domain/rows';
import { findDataset, type DatasetContext } from './dataset-context';

/** Rows appended at `offset` of a dataset. */
export interface NewRows {
  workspaceId: string;
  id: string;
  offset: number;
  rows: Row[];
  /** Bytes of the rows' JSON as sent. */
  bytes: number;
}

/** Rows appended to a dataset, at its row count. */
export class AppendRows {
  constructor(private readonly context: DatasetContext) {}

  /**
   * Appends rows at `offset`, which must be the dataset's row count (409 otherwise; the same rows
   * already held there are a replay, answered unchanged). The append holds the dataset while it writes,
   * counts the rows in the quota, then makes them count in one guarded update: a crash leaves rows
   * past the count, unseen, that a retry overwrites. Appends of other rows wait their turn (409).
   */
  async append(input: NewRows): Promise<DatasetRecord> {
    const record = await findDataset(this.context, input.workspaceId, input.id);
    if (input.rows.length > 0 && input.offset + input.rows.length <= record.rowCount) {
      if (await this.holds(record, input.offset, input.rows)) return record;
      throw appendConflict(record, input.offset);
    }
    const token = createHash('sha256')
      .update(`${input.offset}\n${JSON.stringify(input.rows)}`)
      .digest('hex');
    const held = await this.context.datasets.claimAppend(
      input.workspaceId,
      input.id,
      input.offset,
      token,
      new Date(this.context.clock.now()),
    );
    if (!held) throw appendConflict(record, input.offset);
    const added: Usage = { datasets: 0, rows: input.rows.length, bytes: input.bytes };
    const reserved = await this.context.usage.reserve(input.workspaceId, added, this.context.quota);
    if (!reserved.ok) {
      await this.context.datasets.dropAppend(input.id, token);
      throw quotaExceeded(this.context.quota, reserved.used, added);
    }
    const { skipped } = await this.context.rows.insertAt(input.id, input.offset, input.rows, this.context.writeBatch);
    // Positions already stored are what an append cut short left: this append's rows replace them.
    await this.context.rows.replace(
      input.id,
      skipped.map((index) => ({ index, row: input.rows[index - input.offset]! })),
    );
    const appended = {
      rowCount: input.offset + input.rows.length,
      columns: [...new Set([...held.columns, ...columnsOf(input.rows)])],
      bytes: input.bytes,
    };
    if (!(await this.context.datasets.endAppend(input.id, input.offset, token, appended))) {
      await this.context.usage.release(input.workspaceId, added);
      throw appendConflict(record, input.offset);
    }
    return { ...held, ...appended, bytes: held.bytes + input.bytes };
  }

  /** Whether the dataset holds exactly `rows` from `offset` on (a replayed append). */
  private async holds(record: DatasetRecord, offset: number, rows: readonly Row[]): Promise<boolean> {
    const stored = await this.context.rows.page(record.id, { offset, limit: rows.length }, record.rowCount);
    return stored.length === rows.length && stored.every((json, i) => json === JSON.stringify(rows[i]));
  }
}

/** Another append got there first, or the caller's offset is not the dataset's row count. */
function appendConflict(record: DatasetRecord, offset: number) {
  return httpError(409, {
    detail: {
      reason: 'append_conflict',
      row_count: record.rowCount,
      offset,
      message: `The dataset held ${record.rowCount} rows, not ${offset}, or another append was under way; read its row_count and append there`,
    },
  });
}
