import { indexedCollection, type Collection, type Document, type DocumentStore } from '@rde/platform';
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

export class RowsRepository {
  private constructor(private readonly collection: Collection<RowDocument>) {}

  static async open(store: DocumentStore): Promise<RowsRepository> {
    return new RowsRepository(
      await indexedCollection<RowDocument>(store, 'rows', [{ keys: { dataset_id: 1, index: 1 }, unique: true }]),
    );
  }

  /**
   * Stores `rows` at positions `offset`.., `batchSize` per round trip. Positions already stored
   * (a retried create or append) are skipped and answered, so a retry converges on one copy of
   * each row.
   */
  async insertAt(datasetId: string, offset: number, rows: Iterable<Row> | AsyncIterable<Row>, batchSize: number) {
    const skipped: number[] = [];
    let batch: RowDocument[] = [];
    const flush = async () => {
      const { duplicates } = await this.collection.insertMany(batch);
      skipped.push(...duplicates.map((id) => Number(id.slice(id.lastIndexOf(':') + 1))));
      batch = [];
    };
    let index = offset;
    for await (const row of rows) {
      batch.push({ _id: rowId(datasetId, index), dataset_id: datasetId, index, json: JSON.stringify(row) });
      index += 1;
      if (batch.length >= batchSize) await flush();
    }
    if (batch.length > 0) await flush();
    return { skipped };
  }

  /** Replaces stored rows at their positions; rows not stored are left absent. */
  async replace(datasetId: string, rows: readonly { index: number; row: Row }[]): Promise<void> {
    await Promise.all(
      rows.map(({ index, row }) =>
        this.collection.updateOne({ _id: rowId(datasetId, index) }, { $set: { json: JSON.stringify(row) } }),
      ),
    );
  }

  /**
   * Rows are numbered densely, so a page is an index range: no skipping over earlier rows. Rows at
   * `rowCount` and past it belong to an append not finished yet and are not shown.
   */
  async page(datasetId: string, page: Page, rowCount: number): Promise<string[]> {
    const end = Math.min(page.offset + page.limit, rowCount);
    const docs = await this.collection.find(
      { dataset_id: datasetId, index: { $gte: page.offset, $lt: end } },
      { sort: { index: 1 } },
    );
    return docs.map((doc) => doc.json);
  }

  /** Rows 0..rowCount-1 in order, read from the store as the consumer pulls. */
  async *stream(datasetId: string, rowCount: number): AsyncIterable<Row> {
    const rows = this.collection.stream({ dataset_id: datasetId, index: { $lt: rowCount } }, { sort: { index: 1 } });
    for await (const doc of rows) yield JSON.parse(doc.json) as Row;
  }

  /**
   * Deletes rows 0..rowCount-1 a range at a time: FerretDB turns one delete into one SQL statement
   * with a variable per document, and SQLite refuses a statement with more than 32,766 of them.
   * Rows past `rowCount` (an append cut short, at most one append's worth) go last.
   */
  async removeAll(datasetId: string, rowCount: number): Promise<void> {
    for (let start = 0; start < rowCount; start += DELETE_BATCH_SIZE) {
      await this.collection.deleteMany({
        dataset_id: datasetId,
        index: { $gte: start, $lt: start + DELETE_BATCH_SIZE },
      });
    }
    await this.collection.deleteMany({ dataset_id: datasetId, index: { $gte: rowCount } });
  }
}
