import { errors } from '@rde/platform';
import { usageOf, type DatasetContext } from './dataset-context';

/** A dataset deleted with its rows, its room in the quota given back. */
export class DeleteDataset {
  constructor(private readonly context: DatasetContext) {}

  /**
   * Metadata is hidden first, then rows go, then the metadata, then its quota usage is returned: a
   * crash midway is finished by a retry (one after the metadata went leaves the usage high).
   */
  async delete(workspaceId: string, id: string): Promise<void> {
    const found = await this.context.datasets.beginDelete(workspaceId, id);
    if (!found) throw errors.notFound('Dataset not found');
    await this.context.rows.removeAll(id, found.record.rowCount);
    await this.context.datasets.remove(id);
    if (found.counted) await this.context.usage.release(workspaceId, usageOf(found.record));
  }
}
