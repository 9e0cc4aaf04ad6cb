import { pipeline, Readable } from 'node:stream';
import type { Options } from 'csv-stringify';
import { csvWriter } from '@rde/platform';
import type { Row } from './rows';

/** About how much CSV one streamed message carries. */
export const CSV_CHUNK_BYTES = 64 * 1024;

const options: Options = {
  cast: {
    // csv-stringify writes true as "1" and false as "": spell them out as JSON does.
    boolean: (value) => String(value),
    // Nested objects and arrays keep their structure as JSON text in their cell.
    object: (value) => JSON.stringify(value),
  },
};

/**
 * The header line (the columns) then one line per row, in the rows' order, as chunks of about
 * `chunkBytes`. Quoting and formula neutralising are the shared `csvWriter`'s. Rows are pulled as the consumer reads, so
 * only about one chunk is in memory however many rows there are; a consumer that stops early
 * stops the row source too.
 */
export async function* csvChunks(
  columns: string[],
  rows: AsyncIterable<Row>,
  chunkBytes = CSV_CHUNK_BYTES,
): AsyncGenerator<Buffer> {
  // Records are arrays in column order: keys are never read as csv-stringify's dotted paths.
  async function* records() {
    yield columns;
    for await (const row of rows) yield columns.map((column) => row[column]);
  }
  const csv = pipeline(Readable.from(records()), csvWriter(options), () => undefined);
  let pending: Buffer[] = [];
  let size = 0;
  for await (const piece of csv) {
    const bytes = Buffer.from(piece as string | Buffer);
    pending.push(bytes);
    size += bytes.length;
    if (size >= chunkBytes) {
      yield Buffer.concat(pending);
      pending = [];
      size = 0;
    }
  }
  if (size > 0) yield Buffer.concat(pending);
}
