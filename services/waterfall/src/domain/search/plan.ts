import type { Binding, SearchStep } from './capabilities';
import { COMPANY_KEYS, listOf, type FilterKey, type Filters, type FilterValue } from './filters';
import { pagePlan } from './pages';

/** Step outcomes of the spec (a step that kept rows has none). */
export type Outcome =
  | 'cant_scope_company'
  | 'unsupported_fields'
  | 'cant_scope_location'
  | 'filter_not_bound'
  | 'company_mismatch'
  | 'no_result'
  | 'skip'
  | 'insufficient_credits'
  | 'session_limit';

/** What the declared capabilities decide before any call: run, or an outcome without a vendor call. */
export type StepDecision =
  | { readonly run: true; readonly companies: readonly string[] }
  | {
      readonly run: false;
      readonly outcome: Outcome;
      readonly detail: string;
      readonly unsupportedFields?: FilterKey[];
    };

/**
 * Decides a step from its declaration alone. `dropped` are fields a relaxed retry leaves out. The
 * order matters: a company the step cannot scope makes its other answers moot.
 */
export function decideStep(step: SearchStep, filters: Filters, dropped: readonly FilterKey[] = []): StepDecision {
  const present = (Object.keys(filters) as FilterKey[]).filter((key) => !dropped.includes(key));
  const companyKeys = present.filter((key) => COMPANY_KEYS.includes(key));
  const scopable = companyKeys.filter((key) => step.filters.has(key));
  if (step.companyAnchor && companyKeys.length === 0) {
    return { run: false, outcome: 'skip', detail: 'runs only when the query names a company' };
  }
  if (companyKeys.length > 0 && scopable.length === 0) {
    return {
      run: false,
      outcome: 'cant_scope_company',
      detail: `cannot scope by ${companyKeys.join(' or ')}`,
    };
  }
  const unsupported = present.filter(
    (key) => !COMPANY_KEYS.includes(key) && !step.filters.has(key) && !step.silentlyIgnores.has(key),
  );
  if (unsupported.length > 0) {
    return {
      run: false,
      outcome: 'unsupported_fields',
      detail: `cannot express ${unsupported.join(', ')}`,
      unsupportedFields: unsupported,
    };
  }
  const ignoredByVendor = present.filter((key) => step.silentlyIgnores.has(key));
  if (ignoredByVendor.length > 0) {
    return {
      run: false,
      outcome: 'filter_not_bound',
      detail: `the provider accepts and ignores ${ignoredByVendor.join(', ')}: its results could not be trusted`,
    };
  }
  return { run: true, companies: step.companyAnchor ? scopable.flatMap((key) => listOf(filters[key])) : [] };
}

/** One vendor request: its payload, and how many rows it asks for. */
export interface PlannedRequest {
  readonly payload: Record<string, unknown>;
  readonly rows: number;
}

export interface RequestInput {
  readonly filters: Filters;
  readonly dropped: readonly FilterKey[];
  /** Location tokens the step accepts (already looked up); undefined when the query names none. */
  readonly locations?: readonly string[];
  /** The company of an anchored step's request. */
  readonly company?: string;
  readonly wanted: number;
}

/** The requests of one step, pages sized evenly (rule 11). */
export function requestsOf(step: SearchStep, input: RequestInput): PlannedRequest[] {
  const base = basePayload(step, input);
  const { pages, perPage } = pagePlan(input.wanted, step.pageSize);
  const count = step.paging.style === 'none' ? 1 : pages;
  return Array.from({ length: count }, (_, index) => {
    const rows = step.paging.style === 'none' ? Math.min(input.wanted, step.pageSize) : perPage;
    const payload = structuredClone(base);
    setAt(payload, step.paging.size, rows);
    if (step.paging.style === 'page') setAt(payload, step.paging.page, index + 1);
    if (step.paging.style === 'offset' && index > 0) setAt(payload, step.paging.offset, index * perPage);
    return { payload, rows };
  });
}

/** The most a step can cost for `wanted` rows (and `companies` anchors), in millicredits. */
export function worstCaseOf(step: SearchStep, wanted: number, companies = 1): number {
  const { pages, perPage } = pagePlan(wanted, step.pageSize);
  const requests = (step.paging.style === 'none' ? 1 : pages) * Math.max(1, companies);
  if (step.costUnit === 'record') return step.unitPrice * Math.min(wanted, pages * perPage) * Math.max(1, companies);
  return step.unitPrice * requests;
}

function basePayload(step: SearchStep, input: RequestInput): Record<string, unknown> {
  const payload: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(input.filters) as [FilterKey, FilterValue][]) {
    const binding = step.bind[key];
    if (!binding || input.dropped.includes(key) || key === 'locations') continue;
    if (step.companyAnchor && COMPANY_KEYS.includes(key)) continue;
    setAt(payload, binding.to, shaped(binding, value));
  }
  if (input.locations && step.bind.locations) {
    setAt(payload, step.bind.locations.to, shaped(step.bind.locations, [...input.locations]));
  }
  if (step.companyAnchor && input.company) setAt(payload, step.companyAnchor.to, input.company);
  return payload;
}

function shaped(binding: Binding, value: FilterValue): unknown {
  if (binding.as === 'value') return value;
  const list = listOf(value).map((item) => binding.values?.[item] ?? item);
  if (binding.as === 'list') return list;
  if (binding.as === 'first') return list[0];
  return list.join(' ');
}

function setAt(target: Record<string, unknown>, dotted: string, value: unknown): void {
  const keys = dotted.split('.');
  let node = target;
  for (const key of keys.slice(0, -1)) node = (node[key] ??= {}) as Record<string, unknown>;
  node[keys.at(-1)!] = value;
}
