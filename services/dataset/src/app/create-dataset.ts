import { errors } from '@rde/platform';
import {
  checkDatasetId,
  checkSessionId,
  datasetName,
  ENRICH_STATUS_NONE,
  newDatasetId,
  type DatasetRecord,
} from '../domain/dataset';
import { quotaExceeded } from '../domain/quota';
import { columnsOf, SAMPLE_SIZE, type Row } from '../domain/rows';
import { findDataset, sampleOf, usageOf, type DatasetContext } from './dataset-context';

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

/** A new dataset: its rows as sent, or a copy of another dataset of the workspace. */
export class CreateDataset {
  constructor(private readonly context: DatasetContext) {}

  /**
   * Claims the id, counts it in the workspace's quota, stores the rows, then marks the dataset
   * ready. A retry with the same id after a crash finishes the same dataset (stored rows are
   * skipped); a retry after success changes nothing. A crash between counting and marking it
   * counted makes the retry count it again: usage errs high, never letting a quota be passed.
   * Rows that go in one write (a paid call's results) are marked counted with the ready mark, one
   * store write less, the window for that crash one write wider; longer writes mark it first.
   */
  async create(input: NewDataset): Promise<{ record: DatasetRecord; sample: Row[] }> {
    const id = input.id || newDatasetId();
    checkDatasetId(id);
    checkSessionId(input.sessionId);
    const source = input.copyOf ? await findDataset(this.context, input.workspaceId, input.copyOf) : undefined;
    const record: DatasetRecord = {
      id,
      workspaceId: input.workspaceId,
      name: datasetName(input.name, id),
      columns: source?.columns ?? columnsOf(input.rows),
      rowCount: source?.rowCount ?? input.rows.length,
      bytes: source?.bytes ?? input.bytes,
      sessionId: input.sessionId,
      createdBy: input.createdBy,
      createdAt: this.context.clock.now(),
      source: input.source,
      runId: input.runId,
      enrichStatus: ENRICH_STATUS_NONE,
    };
    const existing = await this.context.datasets.begin(record);
    if (existing?.kind === 'unavailable') throw errors.conflict({ detail: 'dataset_id is already in use' });
    if (existing?.kind === 'ready')
      return { record: existing.record, sample: await sampleOf(this.context, existing.record) };
    const countedWhenReady = !source && input.rows.length <= this.context.writeBatch;
    if (!existing?.counted) await this.count(record, !countedWhenReady);
    const rows = source ? this.context.rows.stream(source.id, source.rowCount) : input.rows;
    await this.context.rows.insertAt(id, 0, rows, this.context.writeBatch);
    await this.context.datasets.markReady(id, countedWhenReady);
    const created = existing?.record ?? record;
    return {
      record: created,
      sample: source ? await sampleOf(this.context, created) : input.rows.slice(0, SAMPLE_SIZE),
    };
  }

  /** Takes the dataset's room in its workspace's quota, or gives up the claim and refuses. */
  private async count(record: DatasetRecord, markCounted: boolean): Promise<void> {
    const reserved = await this.context.usage.reserve(record.workspaceId, usageOf(record), this.context.quota);
    if (!reserved.ok) {
      await this.context.datasets.abandon(record.id);
      throw quotaExceeded(this.context.quota, reserved.used, usageOf(record));
    }
    if (markCounted) await this.context.datasets.markCounted(record.id);
  }
}
