import { errors } from '@rde/platform';
import type { SearchStep } from './capabilities';
import type { CompanyRequest } from './company-match';
import { bindFilters, listOf, type Filters } from './filters';
import { decideStep, worstCaseOf } from './plan';

export const PEOPLE_SEARCH = 'people_search';
export const DEFAULT_LIMIT = 25;
export const MAX_LIMIT = 1000;

/** A parsed search request. */
export interface SearchRequest {
  readonly filters: Filters;
  readonly ignored: string[];
  readonly coverage: 'single' | 'max';
  readonly limit: number;
  readonly preview: boolean;
  readonly chain: SearchStep[];
}

/**
 * The envelope and filters of a search body, checked before anything runs: filters bound (400 when
 * none binds, 422 when one is malformed), coverage and limit checked, the chain narrowed by
 * `providers` (400 for an unknown one). The chain is loaded only once the body is known to be valid.
 */
export async function searchRequestOf(
  body: Record<string, unknown>,
  loadChain: () => Promise<SearchStep[]>,
): Promise<SearchRequest> {
  const bound = bindFilters(body);
  const coverage = body.coverage ?? 'single';
  if (coverage !== 'single' && coverage !== 'max') {
    throw errors.validation([{ loc: ['body', 'coverage'], msg: 'coverage must be single or max', type: 'enum' }]);
  }
  const limit = body.limit ?? bound.limit ?? DEFAULT_LIMIT;
  if (!Number.isInteger(limit) || (limit as number) < 1 || (limit as number) > MAX_LIMIT) {
    throw errors.validation([
      { loc: ['body', 'limit'], msg: `limit must be an integer from 1 to ${MAX_LIMIT}`, type: 'value_error' },
    ]);
  }
  return {
    filters: bound.filters,
    ignored: bound.ignored,
    coverage,
    limit: limit as number,
    preview: body.dry_run === true || body.preview === true,
    chain: chainOf(await loadChain(), body.providers),
  };
}

/**
 * What a step may cost in the worst case of this search, in millicredits: for `limit` people, per
 * company it searches; a step stopped on unsupported fields may still run once relaxed.
 */
export function stepWorstCase(step: SearchStep, request: SearchRequest): number {
  const decision = decideStep(step, request.filters);
  if (!decision.run) return decision.outcome === 'unsupported_fields' ? worstCaseOf(step, request.limit) : 0;
  return worstCaseOf(step, request.limit, decision.companies.length);
}

/** `providers` narrows or reorders the chain (tool or `<tool>.<method>` names); an unknown name is a 400. */
function chainOf(steps: SearchStep[], providers: unknown): SearchStep[] {
  if (providers === undefined) return steps;
  if (!Array.isArray(providers) || providers.length === 0 || !providers.every((p) => typeof p === 'string')) {
    throw errors.validation([
      { loc: ['body', 'providers'], msg: 'providers must be a non-empty list of provider names', type: 'type_error' },
    ]);
  }
  const find = (name: string) => steps.find((step) => step.tool === name || step.name === name);
  const unknown = providers.filter((name) => !find(name));
  if (unknown.length > 0) {
    throw errors.badRequest({
      error: 'unknown_provider',
      detail: `not in the ${PEOPLE_SEARCH} chain: ${unknown.join(', ')}`,
      unknown,
      expected: steps.map((step) => step.tool),
    });
  }
  return [...new Set(providers.map((name) => find(name)!))];
}

/** The companies rows are verified against; a LinkedIn company URL counts by its slug (`…/company/acme-corp`). */
export function companyRequestOf(filters: Filters): CompanyRequest | undefined {
  const slugs = listOf(filters.company_linkedin_urls).flatMap((url) => {
    const slug = /\/company\/([^/?#]+)/i.exec(url)?.[1];
    return slug ? [decodeURIComponent(slug).replace(/[-_]+/g, ' ')] : [];
  });
  const names = [...listOf(filters.company_names), ...slugs];
  const domains = listOf(filters.company_domains);
  return names.length + domains.length > 0 ? { names, domains } : undefined;
}
