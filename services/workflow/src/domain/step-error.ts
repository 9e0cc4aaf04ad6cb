import type { StepError } from './run';
import { isObject } from './references';
import { ENRICH_RUN } from './uses';

/** Search outcomes that mean the money ran out (spec "Search" rule 5): the step stops the run. */
const MONEY_OUTCOMES = new Set(['insufficient_credits', 'session_limit', 'spending_cap_reached']);

/** A refusal without a code of its own, by status: what it names is not there (e.g. another workspace's dataset). */
const FALLBACK_CODES: Record<number, string> = { 404: 'not_found' };

/** A refusal a called service answered (its HTTP status and body) as the step's error. */
export function refusalError(status: number, body: Record<string, unknown>): StepError {
  // Some services answer a structured `detail` ({error | reason, message}); others put the code beside it.
  const inner = isObject(body.detail) ? body.detail : {};
  const codes = [inner.error, body.error, body.reason, body.code, inner.reason];
  const reason = codes.find((value) => typeof value === 'string') as string | undefined;
  const text = [body.detail, inner.message, inner.detail].find((value) => typeof value === 'string') as
    string | undefined;
  const detail = text ?? JSON.stringify(body.detail ?? body);
  if (status === 402) return { code: reason ?? 'insufficient_credits', message: detail };
  return {
    code: reason ?? FALLBACK_CODES[status] ?? (status >= 500 ? 'call_failed' : 'call_refused'),
    message: detail,
  };
}

/**
 * A search that stopped on money answers 200 with the steps it could not pay for; in a workflow
 * that is the step's error (nothing after it is charged), its rows so far kept as its output.
 */
function moneyStopOf(output: Record<string, unknown>): StepError | undefined {
  const steps = Array.isArray(output.steps) ? output.steps : [];
  const stopped = steps.find((step) => isObject(step) && MONEY_OUTCOMES.has(String(step.outcome)));
  if (!isObject(stopped)) return undefined;
  return {
    code: String(stopped.outcome),
    message: `the search stopped at provider ${String(stopped.provider ?? stopped.name ?? '')}: ${String(stopped.outcome)}`,
  };
}

/** Run statuses of an `enrich.run` step's run that fail the step (what the run charged is kept). */
const ENRICH_RUN_STOPS = new Set(['failed', 'cancelled']);

/**
 * What stops the run after a call that answered: a search that ran out of money, or an `enrich.run`
 * whose run ended failed or cancelled (someone cancelled it by its own route).
 */
export function stopOf(uses: string, output: Record<string, unknown>): StepError | undefined {
  if (uses !== ENRICH_RUN) return moneyStopOf(output);
  if (!ENRICH_RUN_STOPS.has(String(output.status))) return undefined;
  const meta = isObject(output._meta) ? output._meta : {};
  const reason = typeof meta.error === 'string' ? `: ${meta.error}` : '';
  return {
    code: `enrich_run_${String(output.status)}`,
    message: `the enrichment run ${String(output.run_id)} ended ${String(output.status)}${reason}`,
  };
}
