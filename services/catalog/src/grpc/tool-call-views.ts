import { errors, type RdeError } from '@rde/platform';
import { qualifiedName } from '../domain/catalog';
import { JobMethodCall } from '../domain/call-failures';
import type { JsonObject } from '../domain/parameters';
import { replaceAt, rowsAt } from '../domain/rows';
import type { PersistedDataset, ToolCallResult } from '../app/tool-call-result';

/** A tool call's public `result`: the dry run's arguments, or the vendor's answer with any dataset envelope in place. */
export function toolCallResultView(call: ToolCallResult): JsonObject {
  if (call.dryRun) return { dry_run: true, args: call.dryRun.args, kwargs: call.dryRun.kwargs };
  if (!call.dataset) return call.result;
  const sample = rowsAt(call.result, call.dataset.rowsPath) ?? [];
  return replaceAt(call.result, call.dataset.rowsPath, datasetEnvelope(call.dataset, sample));
}

/** The canonical dataset envelope (as the datasets routes show a created dataset) with its sample. */
function datasetEnvelope(dataset: PersistedDataset, sample: JsonObject[]): JsonObject {
  return {
    id: dataset.id,
    name: dataset.name,
    columns: [...dataset.columns],
    row_count: dataset.rowCount,
    created_at: new Date(dataset.createdAtMs).toISOString(),
    session_id: dataset.sessionId || null,
    sample,
  };
}

/** The 400 for a job method called directly; any other error as it was. */
export function publicCallError(error: unknown): unknown {
  if (!(error instanceof JobMethodCall)) return error;
  return jobMethodRefusal(error);
}

function jobMethodRefusal({ target }: JobMethodCall): RdeError {
  return errors.badRequest({
    error: 'job_method',
    detail: `${qualifiedName(target)} runs provider jobs for the enrichment waterfalls (POST /enrich/{capability}); open jobs are read with GET /enrich/jobs/{provider}/{job_id}`,
    tool: target.provider.tool,
    method: target.method.name,
    credits_charged: 0,
  });
}
