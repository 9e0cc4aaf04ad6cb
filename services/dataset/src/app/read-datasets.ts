import { checkSessionId, DATASET_PAGE, pageOf, ROW_PAGE, type DatasetRecord, type Page } from '../domain/dataset';
import { csvChunks } from '../domain/csv';
import { findDataset, type DatasetContext } from './dataset-context';

/** A dataset, the workspace's datasets of a session, a page of rows, the CSV export. */
export class ReadDatasets {
  constructor(private readonly context: DatasetContext) {}

  get(workspaceId: string, id: string): Promise<DatasetRecord> {
    return findDataset(this.context, workspaceId, id);
  }

  async list(workspaceId: string, sessionId: string, requested?: Partial<Page>) {
    checkSessionId(sessionId);
    const page = pageOf(requested, DATASET_PAGE);
    return { ...(await this.context.datasets.list(workspaceId, sessionId, page)), page };
  }

  /** A page of rows as their JSON texts, and the dataset's row count. */
  async rowPage(workspaceId: string, id: string, requested?: Partial<Page>) {
    const page = pageOf(requested, ROW_PAGE);
    const record = await findDataset(this.context, workspaceId, id);
    return { rows: await this.context.rows.page(id, page, record.rowCount), page, total: record.rowCount };
  }

  /** Looks the dataset up first, so an unknown id fails before any CSV is produced. */
  async csv(workspaceId: string, id: string): Promise<AsyncIterable<Buffer>> {
    const record = await findDataset(this.context, workspaceId, id);
    return csvChunks(record.columns, this.context.rows.stream(id, record.rowCount));
  }
}
