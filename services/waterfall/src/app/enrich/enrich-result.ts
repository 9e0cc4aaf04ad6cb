/** What an enrichment call answers, shared by the call and its answers. */
export interface PendingJobView {
  readonly provider: string;
  readonly job_id: string;
  readonly fetch: string;
}

/** The `_meta` of an enrichment call, amounts in millicredits; each field present where it applies. */
export interface EnrichMeta {
  readonly charged?: number;
  readonly creditsCharged?: number;
  readonly balance?: number;
  readonly reserved?: number;
  readonly settled?: boolean;
  readonly runId?: string;
  readonly datasetId?: string;
  readonly rowCount?: number;
  readonly status?: string;
  readonly progress?: { readonly done: number; readonly total: number };
  readonly pollAfterS?: number;
  readonly replayed?: boolean;
  readonly pendingJobs?: readonly PendingJobView[];
  readonly wouldCharge?: number;
  readonly wouldCall?: string;
  readonly warnings?: readonly Record<string, unknown>[];
}

export interface EnrichResult {
  readonly result: Record<string, unknown>;
  readonly meta: EnrichMeta;
}
