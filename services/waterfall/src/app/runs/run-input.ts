import type { Hash } from 'node:crypto';
import type { Caller } from '@rde/platform';
import type { Row } from '../../domain/enrich/subject';
import { hashRows, newRowsHash } from '../../domain/runs/plan';
import type { RunRequest } from '../../domain/runs/request';
import type { DatasetClient } from '../../clients';

/** Rows read from an input dataset per GetRows page (the dataset service's largest page). */
const READ_PAGE = 1_000;
/** Rows of the range a `preview` resolves the inputs of. */
const PREVIEW_ROWS = 3;

/** What a run reads of its input before it starts (never every row at once). */
export interface RunInput {
  count: number;
  /** The rows' hash so far (rule 4's key). */
  readonly hash: Hash;
  /** Rows from the range's start on, as many as a preview shows. */
  readonly head: Row[];
}

/**
 * What a run needs of its input, read page by page and never held whole: the row count, the
 * rows' hash (rule 4), and the rows a preview shows from the range's start. A dataset not of the
 * workspace is the dataset service's 404.
 */
export async function runInputOf(dataset: DatasetClient, request: RunRequest, caller: Caller): Promise<RunInput> {
  const from = request.range?.start ?? 0;
  const headOf = (rows: readonly Row[], offset: number) =>
    rows.slice(Math.max(0, from - offset), Math.max(0, from + PREVIEW_ROWS - offset));
  if (request.inputRows) {
    const rows = request.inputRows;
    return { count: rows.length, hash: hashRows(newRowsHash(), rows), head: headOf(rows, 0) };
  }
  const input: RunInput = { count: 0, hash: newRowsHash(), head: [] };
  for (let total = Infinity; input.count < total;) {
    const page = await dataset.getRows(
      { datasetId: request.input!, page: { offset: input.count, limit: READ_PAGE } },
      { caller },
    );
    total = Number(page.page?.total ?? 0);
    const batch = JSON.parse(page.rowsJson.toString('utf8')) as Row[];
    if (batch.length === 0) break;
    hashRows(input.hash, batch);
    input.head.push(...headOf(batch, input.count));
    input.count += batch.length;
  }
  return input;
}
