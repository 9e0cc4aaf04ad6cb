import type { Caller } from '@rde/platform';
import type { publicSchemas } from '@rde/proto';
import type { ToolClients } from '../../clients';

/** One MCP tool: its contract (JSON Schema) and the RPC it maps onto. Built once, at module scope. */
export interface McpTool {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  /** The REST route's request schema where the tool mirrors one (publicSchemas), so the two cannot drift. */
  readonly inputSchema: Record<string, unknown>;
  /** true when the tool may spend credits (MCP's `readOnlyHint: false`). */
  readonly spends: boolean;
  /** true when the tool changes stored state without spending (applying a workflow): not read-only either. */
  readonly writes?: boolean;
  /** The spec's own refusal for some schema failures (qualify's `bad_candidates`), ahead of the 422 list. */
  readonly refuse?: (issues: readonly publicSchemas.SchemaIssue[]) => publicSchemas.Refusal | undefined;
  /**
   * `callId`: the run id the gateway derived from the call's idempotency key ('' when none): a paid
   * call carries it, so a retry after the gateway died joins that call's run.
   */
  run(
    clients: ToolClients,
    caller: Caller,
    args: Record<string, unknown>,
    callId: string,
  ): Promise<Record<string, unknown>>;
}

/** A paid call waits for a vendor: the same longer deadline the REST call route gives it. */
export const CALL_DEADLINE_MS = 60_000;
/** A search or an enrichment walks a provider chain: the REST waterfall routes' deadline. */
export const WATERFALL_DEADLINE_MS = 90_000;

/** An object schema of the MCP-only tools' own arguments (the listing and the reads). */
export const object = (properties: Record<string, unknown>, required: string[] = []) => ({
  type: 'object',
  properties,
  required,
  additionalProperties: false,
});
export const text = (description: string) => ({ type: 'string', minLength: 1, description });
