import type { EnrichMeta } from '../app/enrich/enrich-result';

/** Millicredits as a proto Credits, absent when the use case left the figure out. */
export const credits = (millicredits: number | undefined) =>
  millicredits === undefined ? undefined : { millicredits };

/** What a search's and an enrichment's `_meta` both carry: the money after the run, and where its rows went. */
type MeteringFields = Pick<
  EnrichMeta,
  'charged' | 'balance' | 'reserved' | 'settled' | 'runId' | 'datasetId' | 'rowCount' | 'wouldCharge'
>;

/** Those fields as the SearchMeta and EnrichMeta messages name them. */
export function meteringView(meta: MeteringFields) {
  return {
    charged: credits(meta.charged),
    balance: credits(meta.balance),
    reserved: credits(meta.reserved),
    settled: meta.settled,
    runId: meta.runId ?? '',
    datasetId: meta.datasetId ?? '',
    rowCount: meta.rowCount,
    wouldChargeCredits: credits(meta.wouldCharge),
  };
}
