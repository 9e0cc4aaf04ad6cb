import { errors, type Clock } from '@rde/platform';
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
} from './domain/dataset';
import { csvChunks } from './domain/csv';
import { quotaExceeded, type QuotaLimits, type Usage } from './domain/quota';
import { columnsOf, SAMPLE_SIZE, type Row } from './domain/rows';
import type { DatasetRepository } from './store/datasets';
import type { RowRepository } from './store/rows';
import type { UsageRepository } from './store/usage';

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
}

const notFound = () => errors.notFound('Dataset not found');

/** The dataset service's operations, every one scoped to the caller's workspace. */
export class Datasets {
  constructor(
    private readonly datasets: DatasetRepository,
    private readonly rows: RowRepository,
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
    const record: DatasetRecord = {
      id,
      workspaceId: input.workspaceId,
      name: datasetName(input.name, id),
      columns: columnsOf(input.rows),
      rowCount: input.rows.length,
      bytes: input.bytes,
      sessionId: input.sessionId,
      createdBy: input.createdBy,
      createdAt: this.clock.now(),
      source: input.source,
      runId: input.runId,
      enrichStatus: ENRICH_STATUS_NONE,
    };
    const existing = await this.datasets.begin(record);
    if (existing?.kind === 'unavailable') throw errors.conflict({ detail: 'dataset_id is already in use' });
    if (existing?.kind === 'ready') return { record: existing.record, sample: await this.sample(existing.record.id) };
    if (!existing?.counted) await this.count(record);
    await this.rows.insertAll(id, input.rows, this.writeBatch);
    await this.datasets.markReady(id);
    return { record: existing?.record ?? record, sample: input.rows.slice(0, SAMPLE_SIZE) };
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
    return { rows: await this.rows.page(id, page), page, total: record.rowCount };
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
    return csvChunks(record.columns, this.rows.stream(id));
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

  private async sample(id: string): Promise<Row[]> {
    return (await this.rows.page(id, { offset: 0, limit: SAMPLE_SIZE })).map((json) => JSON.parse(json) as Row);
  }
}

function usageOf(record: DatasetRecord): Usage {
  return { datasets: 1, rows: record.rowCount, bytes: record.bytes };
}
