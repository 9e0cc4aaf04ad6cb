import type { Collection, Document, DocumentStore } from '@rde/platform';
import type { Page } from '../domain/dataset';
import type { Row } from '../domain/rows';

/**
 * One document per row. The row is kept as its JSON text: the store never looks inside it, and
 * row keys with dots or a leading `$` (common in uploaded sheets) are not valid field names
 * everywhere (FerretDB refuses some).
 */
interface RowDocument extends Document {
  dataset_id: string;
  index: number;
  json: string;
}

/** A row's id is its dataset's id and its position, so writing a row again is a duplicate, not a copy. */
const rowId = (datasetId: string, index: number) => `${datasetId}:${index}`;

const DELETE_BATCH_SIZE = 20_000;

export class RowRepository {
  private constructor(private readonly collection: Collection<RowDocument>) {}

  static async open(store: DocumentStore): Promise<RowRepository> {
    const collection = store.collection<RowDocument>('rows');
    await collection.createIndex({ keys: { dataset_id: 1, index: 1 }, unique: true });
    return new RowRepository(collection);
  }

  /**
   * Stores `rows` at positions 0..n-1, `batchSize` per round trip. Rows already stored (a retried
   * create) are skipped as duplicates, so a retry converges on one copy of each row.
   */
  async insertAll(datasetId: string, rows: readonly Row[], batchSize: number): Promise<void> {
    for (let start = 0; start < rows.length; start += batchSize) {
      const batch = rows.slice(start, start + batchSize).map((row, offset): RowDocument => {
        const index = start + offset;
        return { _id: rowId(datasetId, index), dataset_id: datasetId, index, json: JSON.stringify(row) };
      });
      await this.collection.insertMany(batch);
    }
  }

  /** Replaces stored rows at their positions; rows not stored are left absent. */
  async replace(datasetId: string, rows: readonly { index: number; row: Row }[]): Promise<void> {
    await Promise.all(
      rows.map(({ index, row }) =>
        this.collection.updateOne({ _id: rowId(datasetId, index) }, { $set: { json: JSON.stringify(row) } }),
      ),
    );
  }

  /** Rows are numbered densely, so a page is an index range: no skipping over earlier rows. */
  async page(datasetId: string, page: Page): Promise<string[]> {
    const docs = await this.collection.find(
      { dataset_id: datasetId, index: { $gte: page.offset, $lt: page.offset + page.limit } },
      { sort: { index: 1 } },
    );
    return docs.map((doc) => doc.json);
  }

  /** Every row in order, read from the store as the consumer pulls. */
  async *stream(datasetId: string): AsyncIterable<Row> {
    for await (const doc of this.collection.stream({ dataset_id: datasetId }, { sort: { index: 1 } })) {
      yield JSON.parse(doc.json) as Row;
    }
  }

  /**
   * Deletes rows 0..rowCount-1 a range at a time: FerretDB turns one delete into one SQL statement
   * with a variable per document, and SQLite refuses a statement with more than 32,766 of them.
   */
  async removeAll(datasetId: string, rowCount: number): Promise<void> {
    for (let start = 0; start < rowCount; start += DELETE_BATCH_SIZE) {
      await this.collection.deleteMany({
        dataset_id: datasetId,
        index: { $gte: start, $lt: start + DELETE_BATCH_SIZE },
      });
    }
  }
}
