import { errors, type Clock } from '@rde/platform';
import type { DatasetRecord } from '../domain/dataset';
import type { QuotaLimits, Usage } from '../domain/quota';
import { SAMPLE_SIZE, type Row } from '../domain/rows';
import type { DatasetsRepository } from '../store/datasets';
import type { RowsRepository } from '../store/rows';
import type { UsageRepository } from '../store/usage';

/** What the dataset use cases share: the repositories, the clock and the limits. */
export interface DatasetContext {
  readonly datasets: DatasetsRepository;
  readonly rows: RowsRepository;
  readonly usage: UsageRepository;
  readonly clock: Clock;
  /** Rows per bulk insert. */
  readonly writeBatch: number;
  readonly quota: QuotaLimits;
}

/** A dataset of the workspace, or 404: every use case is scoped to the caller's workspace. */
export async function findDataset(context: DatasetContext, workspaceId: string, id: string): Promise<DatasetRecord> {
  const record = await context.datasets.find(workspaceId, id);
  if (!record) throw errors.notFound('Dataset not found');
  return record;
}

export async function sampleOf(context: DatasetContext, record: DatasetRecord): Promise<Row[]> {
  const page = await context.rows.page(record.id, { offset: 0, limit: SAMPLE_SIZE }, record.rowCount);
  return page.map((json) => JSON.parse(json) as Row);
}

export function usageOf(record: DatasetRecord): Usage {
  return { datasets: 1, rows: record.rowCount, bytes: record.bytes };
}
