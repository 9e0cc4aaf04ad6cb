import type { ServiceClient } from '@rde/platform';
import type { waterfall } from '@rde/proto';
import { isObject } from '../domain/references';
import { bytes, free, parsed, type StepCall, type StepCallResult } from './step-call';

/** How the `enrich.run` step waits for its run: the poll's interval, and the pause between polls. */
export interface RunWaiting {
  readonly pollMs: number;
  readonly sleep: (ms: number) => Promise<void>;
}

type Waterfall = ServiceClient<typeof waterfall.WaterfallServiceService>;

/** Credits as the run record shows them (a number) in millicredits. */
const millicreditsOf = (credits: unknown) => (typeof credits === 'number' ? Math.round(credits * 1000) : 0);

/**
 * `enrich.run` (decision 0088): starts a dataset enrichment run under the step item's call id (a
 * repeat after a redelivery or a take-over joins the run the first call started), then polls it
 * until it is no longer running; the output is the run as `GET /enrich/runs/{run_id}` shows it.
 * A dry run asks for the estimate only: nothing is held, started or called.
 */
export function enrichRunCall(walks: Waterfall, waiting: RunWaiting) {
  return async ({ input, dryRun, callId, caller }: StepCall): Promise<StepCallResult> => {
    const body = dryRun ? { ...input, estimate: true } : { ...input, detach: true };
    const { runJson } = await walks.rpc.startEnrichRun(
      { bodyJson: bytes(body), runId: dryRun ? '' : callId },
      { caller },
    );
    const started = parsed(runJson);
    const meta = isObject(started._meta) ? started._meta : {};
    const runId = typeof meta.run_id === 'string' ? meta.run_id : '';
    // A check (a dry run, or `estimate`/`dry_run`/`preview` in `with`) starts nothing: its answer is the output.
    if (!runId) return { ...free(started), wouldChargeMillicredits: millicreditsOf(meta.would_charge_credits) };
    // Read once even when the start already ended it: only GET shows the 5-row sample.
    const read = async () => parsed((await walks.rpc.getEnrichRun({ runId }, { caller })).runJson);
    let record = await read();
    while (record.status === 'running') {
      await waiting.sleep(waiting.pollMs);
      record = await read();
    }
    return meta.replayed === true ? replayedOf(record) : charged(record);
  };
}

function charged(record: Record<string, unknown>): StepCallResult {
  const meta = isObject(record._meta) ? record._meta : {};
  return { ...free(record), chargedMillicredits: millicreditsOf(meta.charged) };
}

/**
 * The same rows and steps within 15 minutes reattached to an earlier run (spec rule): that run's
 * charge is the earlier caller's, so this step shows and charges nothing.
 */
function replayedOf(record: Record<string, unknown>): StepCallResult {
  const meta = isObject(record._meta) ? record._meta : {};
  return free({ ...record, _meta: { ...meta, replayed: true, charged: 0, credits_charged: 0 } });
}
