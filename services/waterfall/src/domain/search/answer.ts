import type { catalog } from '@rde/proto';
import type { SearchStep } from './capabilities';
import { COMPANY_KEYS, listOf, type FilterKey } from './filters';
import type { ResultRow } from './people';
import { decideStep, type Outcome } from './plan';
import { stepWorstCase, type SearchRequest } from './request';

/** More companies than this in one search earns the `many_companies` warning. */
const MANY_COMPANIES = 10;

/** The Step record of the spec. */
export interface StepRecord {
  step: string;
  outcome: Outcome | null;
  charged: number;
  counts: { returned: number; new: number; charged: number; pages: number };
  unsupported_fields?: string[];
  verify_dropped?: number;
  filters_relaxed?: string[];
  detail?: string;
}

/** The `_meta` of a search, amounts in millicredits; each field is present where it applies. */
export interface SearchMetaFields {
  charged?: number;
  balance?: number;
  reserved?: number;
  settled?: boolean;
  runId?: string;
  datasetId?: string;
  rowCount?: number;
  wouldCharge?: number;
  ignoredQueryKeys: string[];
  warnings: Record<string, unknown>[];
}

/** A search's answer: the body without `_meta`, and `_meta`. */
export interface SearchAnswer {
  readonly result: Record<string, unknown>;
  readonly meta: SearchMetaFields;
}

/** A step's record before it runs. */
export function newRecord(step: SearchStep, dropped: FilterKey[]): StepRecord {
  return {
    step: step.name,
    outcome: null,
    charged: 0,
    counts: { returned: 0, new: 0, charged: 0, pages: 0 },
    ...(dropped.length > 0 && { filters_relaxed: dropped }),
  };
}

/** Records why a step gave no rows; the step contributes none. */
export function stopped(record: StepRecord, outcome: Outcome, detail: string): ResultRow[] {
  record.outcome = outcome;
  record.detail = detail;
  return [];
}

/**
 * A vendor that failed before answering anything: `skip`, never a charge. A closed location
 * vocabulary (place names) refusing the request means the location did not resolve.
 */
export function failedStep(
  record: StepRecord,
  step: SearchStep,
  failure: catalog.ProviderFailure,
  locations?: string[],
): ResultRow[] {
  if (failure.reason === 'rejected' && locations && step.locationTokens === 'place_name') {
    return stopped(record, 'cant_scope_location', `no location resolves to a token it accepts (${failure.message})`);
  }
  return stopped(record, 'skip', `provider failed (${failure.reason}: ${failure.message}); not billed`);
}

/** The warnings of a finished search: the notices on its rows, then the advisory ones. */
export function warningsOf(request: SearchRequest, rows: readonly ResultRow[]): Record<string, unknown>[] {
  const warnings: Record<string, unknown>[] = [];
  const unverified = rows.filter((row) => row.verification_required).length;
  if (unverified > 0) warnings.push({ code: 'unverified_web_results', count: unverified });
  const outside = rows.filter((row) => row.outside_locations).length;
  if (outside > 0) warnings.push({ code: 'outside_locations', count: outside });
  warnings.push(...advisoryWarnings(request, rows.length));
  return warnings;
}

/** Rule 10: free advisory warnings. */
function advisoryWarnings(request: SearchRequest, found: number): Record<string, unknown>[] {
  const warnings: Record<string, unknown>[] = [];
  const companies = COMPANY_KEYS.reduce((sum, key) => sum + listOf(request.filters[key]).length, 0);
  if (companies > MANY_COMPANIES) warnings.push({ code: 'many_companies', count: companies });
  const groups = new Set(
    Object.keys(request.filters).map((key) => (COMPANY_KEYS.includes(key as FilterKey) ? 'company' : key)),
  );
  if (found === 0 && groups.size >= 2) warnings.push({ code: 'over_filtered', filter_groups: [...groups] });
  return warnings;
}

/** dry_run / preview: the chain that would run with each step's worst case; no vendor call, no charge. */
export function previewAnswer(request: SearchRequest, worstCase: number): SearchAnswer {
  const chain = request.chain.map((step) => {
    const decision = decideStep(step, request.filters);
    return {
      step: step.name,
      would_run: decision.run,
      ...(!decision.run && { outcome: decision.outcome, detail: decision.detail }),
      worst_case_credits: stepWorstCase(step, request) / 1000,
    };
  });
  return {
    result: { dry_run: true, results: [], steps: [], hit: false, chain },
    meta: { wouldCharge: worstCase, ignoredQueryKeys: request.ignored, warnings: advisoryWarnings(request, 1) },
  };
}

/** No credit available at all: every step stops on the balance; nothing is held or charged. */
export function nothingAvailable(request: SearchRequest): SearchAnswer {
  const steps = request.chain.map((step) => {
    const record = newRecord(step, []);
    stopped(record, 'insufficient_credits', 'the workspace has no credits available');
    return record;
  });
  return {
    result: { results: [], steps, hit: false },
    meta: { charged: 0, ignoredQueryKeys: request.ignored, warnings: [] },
  };
}
