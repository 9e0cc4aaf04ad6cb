import type { Caller } from '@rde/platform';
import { MAX_ROWS } from '../../domain/enrich/request';
import type { Row } from '../../domain/enrich/subject';
import type { WaterfallClients } from '../../clients';
import type { EnrichRunDocument } from '../../store/enrich-runs';

/** The rows of an enrichment call as its dataset shows them (at most 100: one page). */
export async function datasetRowsOf(clients: WaterfallClients, run: EnrichRunDocument, caller: Caller): Promise<Row[]> {
  const page = await clients.dataset.getRows(
    { datasetId: run.dataset_id, page: { offset: 0, limit: MAX_ROWS } },
    { caller },
  );
  return JSON.parse(page.rowsJson.toString('utf8')) as Row[];
}

/** A dataset row whose walk ended: it has steps. */
export function finishedRow(row: Row | undefined): boolean {
  return Array.isArray(row?.steps) && row.steps.length > 0;
}
