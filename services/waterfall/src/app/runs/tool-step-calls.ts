import { RdeError, type Caller } from '@rde/platform';
import type { Row } from '../../domain/enrich/subject';
import { runStepName, toolArgsOf, toolCallRunIdOf, type ToolStep } from '../../domain/runs/tool-steps';
import type { CatalogClient } from '../../clients';
import type { DatasetRunDocument } from '../../store/dataset-runs';

/**
 * A tool step: one CallTool per row, in order, under a run id fixed by the run, the row and the
 * step (a redelivered chunk is answered from catalog's stored outcome, not charged again). The
 * call bills itself (its own hold and settlement); the run counts what it charged as spent. A
 * call refused for its input (4xx) leaves `{error}` in the row's column, a miss; any other
 * failure fails the chunk, which is tried again.
 */
export async function callToolStep(
  catalog: CatalogClient,
  run: DatasetRunDocument,
  caller: Caller,
  step: ToolStep,
  rows: Row[],
) {
  const name = runStepName(step);
  const hits = new Set<number>();
  let spent = 0;
  for (const [index, row] of rows.entries()) {
    if (!row) continue;
    const payload = toolArgsOf(step, row);
    try {
      const { resultJson, meta } = await catalog.callTool(
        {
          tool: step.tool,
          method: step.method,
          payloadJson: Buffer.from(JSON.stringify(payload)),
          argsJson: Buffer.alloc(0),
          kwargsJson: Buffer.alloc(0),
          dryRun: false,
          runId: toolCallRunIdOf(run._id, index, name),
        },
        { caller },
      );
      const charged = Number(meta?.creditsCharged?.millicredits ?? 0);
      spent += charged;
      if (charged > 0) hits.add(index);
      rows[index] = { ...row, [name]: JSON.parse(resultJson.toString('utf8')) as unknown };
    } catch (error) {
      if (!(error instanceof RdeError) || error.httpStatus >= 500) throw error;
      rows[index] = { ...row, [name]: { error: reasonOf(error) } };
    }
  }
  return { hits, spent };
}

/** What a client may read of a failure: a refusal's own detail, never an internal error's text. */
export function reasonOf(error: unknown): string {
  if (error instanceof RdeError && error.httpStatus < 500) {
    const detail = (error.body as { detail?: unknown }).detail;
    if (typeof detail === 'string') return detail;
  }
  return 'an internal error (logged)';
}
