import { createHash } from 'node:crypto';
import { errors, httpError, type Clock } from '@rde/platform';
import {
  checkDatasetId,
  checkSessionId,
  datasetName,
  DATASET_PAGE,
  ENRICH_STATUS_NONE,
  newDatasetId,
  pageOf,
  ROW_PAGE,
  type DatasetRecord,
  type Page,
} from '../domain/dataset';
import { csvChunks } from '../domain/csv';
import { quotaExceeded, type QuotaLimits, type Usage } from '../domain/quota';
import { columnsOf, SAMPLE_SIZE, type Row } from '../domain/rows';
import type { DatasetsRepository } from '../store/datasets';
import type { RowsRepository } from '../store/rows';
import type { UsageRepository } from '../store/usage';

/** Who creates a dataset and what they send. */
export interface NewDataset {
  workspaceId: string;
  createdBy: string;
  /** Empty: a fresh random id. Given: idempotent, a replay answers the stored dataset. */
  id: string;
  name: string;
  rows: Row[];
  /** Bytes of the rows' JSON as sent. */
  bytes: number;
  sessionId: string;
  source: string;
  runId: string;
  /** A dataset of the workspace whose rows it starts with, copied here (then `rows` is empty). */
  copyOf?: string;
}

/** Rows appended at `offset` of a dataset. */
export interface NewRows {
  workspaceId: string;
  id: string;
  offset: number;
  rows: Row[];
  /** Bytes of the rows' JSON as sent. */
  bytes: number;
}

const notFound = () => errors.notFound('Dataset not found');

/** The dataset service's operations, every one scoped to the caller's workspace. */
export class Datasets {
  constructor(
    private readonly datasets: DatasetsRepository,
    private readonly rows: RowsRepository,
    private readonly usage: UsageRepository,
    private readonly clock: Clock,
    /** Rows per bulk insert. */
    private readonly writeBatch: number,
    private readonly quota: QuotaLimits,
  ) {}

  /**
   * Claims the id, counts it in the workspace's quota, stores the rows, then marks the dataset
   * ready. A retry with the same id after a crash finishes the same dataset (stored rows are
   * skipped); a retry after success changes nothing. A crash between counting and marking it
   * counted makes the retry count it again: usage errs high, never letting a quota be passed.
   */
  async create(input: NewDataset): Promise<{ record: DatasetRecord; sample: Row[] }> {
    const id = input.id || newDatasetId();
    checkDatasetId(id);
    checkSessionId(input.sessionId);
    const source = input.copyOf ? await this.get(input.workspaceId, input.copyOf) : undefined;
    const record: DatasetRecord = {
      id,
      workspaceId: input.workspaceId,
      name: datasetName(input.name, id),
      columns: source?.columns ?? columnsOf(input.rows),
      rowCount: source?.rowCount ?? input.rows.length,
      bytes: source?.bytes ?? input.bytes,
      sessionId: input.sessionId,
      createdBy: input.createdBy,
      createdAt: this.clock.now(),
      source: input.source,
      runId: input.runId,
      enrichStatus: ENRICH_STATUS_NONE,
    };
    const existing = await this.datasets.begin(record);
    if (existing?.kind === 'unavailable') throw errors.conflict({ detail: 'dataset_id is already in use' });
    if (existing?.kind === 'ready') return { record: existing.record, sample: await this.sample(existing.record) };
    if (!existing?.counted) await this.count(record);
    const rows = source ? this.rows.stream(source.id, source.rowCount) : input.rows;
    await this.rows.insertAt(id, 0, rows, this.writeBatch);
    await this.datasets.markReady(id);
    const created = existing?.record ?? record;
    return { record: created, sample: source ? await this.sample(created) : input.rows.slice(0, SAMPLE_SIZE) };
  }

  /**
   * Appends rows at `offset`, which must be the dataset's row count (409 otherwise; the same rows
   * already held there are a replay, answered unchanged). The append holds the dataset while it writes,
   * counts the rows in the quota, then makes them count in one guarded update: a crash leaves rows
   * past the count, unseen, that a retry overwrites. Appends of other rows wait their turn (409).
   */
  async append(input: NewRows): Promise<DatasetRecord> {
    const record = await this.get(input.workspaceId, input.id);
    if (input.rows.length > 0 && input.offset + input.rows.length <= record.rowCount) {
      if (await this.holds(record, input.offset, input.rows)) return record;
      throw appendConflict(record, input.offset);
    }
    const token = createHash('sha256')
      .update(`${input.offset}\n${JSON.stringify(input.rows)}`)
      .digest('hex');
    const held = await this.datasets.claimAppend(
      input.workspaceId,
      input.id,
      input.offset,
      token,
      new Date(this.clock.now()),
    );
    if (!held) throw appendConflict(record, input.offset);
    const added: Usage = { datasets: 0, rows: input.rows.length, bytes: input.bytes };
    const reserved = await this.usage.reserve(input.workspaceId, added, this.quota);
    if (!reserved.ok) {
      await this.datasets.dropAppend(input.id, token);
      throw quotaExceeded(this.quota, reserved.used, added);
    }
    const { skipped } = await this.rows.insertAt(input.id, input.offset, input.rows, this.writeBatch);
    // Positions already stored are what an append cut short left: this append's rows replace them.
    await this.rows.replace(
      input.id,
      skipped.map((index) => ({ index, row: input.rows[index - input.offset]! })),
    );
    const appended = {
      rowCount: input.offset + input.rows.length,
      columns: [...new Set([...held.columns, ...columnsOf(input.rows)])],
      bytes: input.bytes,
    };
    if (!(await this.datasets.endAppend(input.id, input.offset, token, appended))) {
      await this.usage.release(input.workspaceId, added);
      throw appendConflict(record, input.offset);
    }
    return { ...held, ...appended, bytes: held.bytes + input.bytes };
  }

  async get(workspaceId: string, id: string): Promise<DatasetRecord> {
    const record = await this.datasets.find(workspaceId, id);
    if (!record) throw notFound();
    return record;
  }

  async list(workspaceId: string, sessionId: string, requested?: Partial<Page>) {
    checkSessionId(sessionId);
    const page = pageOf(requested, DATASET_PAGE);
    return { ...(await this.datasets.list(workspaceId, sessionId, page)), page };
  }

  /** A page of rows as their JSON texts, and the dataset's row count. */
  async rowPage(workspaceId: string, id: string, requested?: Partial<Page>) {
    const page = pageOf(requested, ROW_PAGE);
    const record = await this.get(workspaceId, id);
    return { rows: await this.rows.page(id, page, record.rowCount), page, total: record.rowCount };
  }

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
    const record = await this.get(workspaceId, id);
    const outside = rows.find(({ index }) => !Number.isInteger(index) || index < 0 || index >= record.rowCount);
    if (outside)
      throw errors.badRequest({ detail: `row ${outside.index} is outside the dataset (${record.rowCount} rows)` });
    await this.rows.replace(id, rows);
    if (enrichStatus) await this.datasets.setEnrichStatus(id, enrichStatus);
  }

  /** Looks the dataset up first, so an unknown id fails before any CSV is produced. */
  async csv(workspaceId: string, id: string): Promise<AsyncIterable<Buffer>> {
    const record = await this.get(workspaceId, id);
    return csvChunks(record.columns, this.rows.stream(id, record.rowCount));
  }

  /**
   * Metadata is hidden first, then rows go, then the metadata, then its quota usage is returned: a
   * crash midway is finished by a retry (one after the metadata went leaves the usage high).
   */
  async delete(workspaceId: string, id: string): Promise<void> {
    const found = await this.datasets.beginDelete(workspaceId, id);
    if (!found) throw notFound();
    await this.rows.removeAll(id, found.record.rowCount);
    await this.datasets.remove(id);
    if (found.counted) await this.usage.release(workspaceId, usageOf(found.record));
  }

  /** Takes the dataset's room in its workspace's quota, or gives up the claim and refuses. */
  private async count(record: DatasetRecord): Promise<void> {
    const reserved = await this.usage.reserve(record.workspaceId, usageOf(record), this.quota);
    if (!reserved.ok) {
      await this.datasets.abandon(record.id);
      throw quotaExceeded(this.quota, reserved.used, usageOf(record));
    }
    await this.datasets.markCounted(record.id);
  }

  /** Whether the dataset holds exactly `rows` from `offset` on (a replayed append). */
  private async holds(record: DatasetRecord, offset: number, rows: readonly Row[]): Promise<boolean> {
    const stored = await this.rows.page(record.id, { offset, limit: rows.length }, record.rowCount);
    return stored.length === rows.length && stored.every((json, i) => json === JSON.stringify(rows[i]));
  }

  private async sample(record: DatasetRecord): Promise<Row[]> {
    const page = await this.rows.page(record.id, { offset: 0, limit: SAMPLE_SIZE }, record.rowCount);
    return page.map((json) => JSON.parse(json) as Row);
  }
}

function usageOf(record: DatasetRecord): Usage {
  return { datasets: 1, rows: record.rowCount, bytes: record.bytes };
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
