import type { CallInput, JsonObject } from '../domain/parameters';

export interface ToolCallRequest {
  readonly tool: string;
  readonly method: string;
  readonly input: CallInput;
  readonly dryRun: boolean;
  /** The caller's run id for this call (a retry sends the same); empty: a fresh one. */
  readonly runId: string;
}

/** The `_meta` of a tool call, amounts in millicredits; each field is present where it applies. */
export interface CallMeta {
  readonly creditsCharged?: number;
  readonly balance?: number;
  readonly reserved?: number;
  readonly runId?: string;
  readonly settled?: boolean;
  readonly datasetId?: string;
  readonly rowCount?: number;
  readonly wouldCharge?: number;
  readonly wouldChargeMax?: number;
  readonly wouldCall?: string;
}

export interface ToolCallResult {
  /**
   * The vendor's answer (empty on a dry run: nothing was called). Above INLINE_ROW_CAP rows its
   * row list is cut to the sample, and `dataset` says where the rows went.
   */
  readonly result: JsonObject;
  readonly meta: CallMeta;
  readonly dataset?: PersistedDataset;
  /** A dry run: the arguments the call would send. */
  readonly dryRun?: { readonly args: unknown; readonly kwargs: unknown };
}

/** The dataset a call's paid rows went to, shown (by the grpc layer) in place of the row list. */
export interface PersistedDataset {
  readonly rowsPath: readonly string[];
  readonly id: string;
  readonly name: string;
  readonly columns: readonly string[];
  readonly rowCount: number;
  readonly createdAtMs: number;
  readonly sessionId: string;
}
