import { chargeIdOf, type PersonRecord } from '@rde/platform';
import type { catalog } from '@rde/proto';
import { failedStep, stopped, type StepRecord } from '../../domain/search/answer';
import type { SearchStep } from '../../domain/search/capabilities';
import { verifiesCompany } from '../../domain/search/company-match';
import { listOf, type FilterKey } from '../../domain/search/filters';
import { insideLocations, type ResultRow } from '../../domain/search/people';
import { requestsOf } from '../../domain/search/plan';
import { companyRequestOf } from '../../domain/search/request';
import { peopleIn } from '../../clients/people';
import type { SearchProviders } from './search-providers';
import { filled, merge, type Walk } from './search-walk';

/** What a decided step is called with. */
export interface StepInput {
  readonly dropped: FilterKey[];
  readonly wanted: number;
  readonly locations?: string[];
  readonly companies: readonly string[];
  /** Steps running at once: rows are returned to be merged in chain order, not merged as they come. */
  readonly deferred: boolean;
}

/** Calls a decided step page by page (per requested company), verifies and bills what it returned. */
export async function callStep(
  providers: SearchProviders,
  walk: Walk,
  step: SearchStep,
  index: number,
  record: StepRecord,
  input: StepInput,
): Promise<{ rows: ResultRow[]; cost: number }> {
  const anchors = input.companies.length > 0 ? input.companies : [undefined];
  const kept: ResultRow[] = [];
  let cost = 0;
  let requestNo = 0;
  let failure: catalog.ProviderFailure | undefined;
  for (const company of anchors) {
    const planned = requestsOf(step, { filters: walk.request.filters, ...input, company });
    for await (const { answer, rows } of providers.pages(walk.run, step, index, planned, requestNo)) {
      if (answer.failure) {
        failure = answer.failure;
        break;
      }
      record.counts.pages += 1;
      cost += Number(answer.cost?.millicredits ?? 0);
      const people = peopleIn(answer);
      record.counts.returned += people.length;
      const checked = verified(walk, step, record, people, input.dropped);
      kept.push(...checked);
      if (!input.deferred) merge(walk, record, checked);
      if (people.length < rows || filled(walk)) break;
    }
    requestNo += planned.length;
    if (failure || filled(walk)) break;
  }
  bill(walk, step, index, record, cost);
  const result = { rows: input.deferred ? kept : [], cost };
  if (failure && record.counts.pages === 0) {
    failedStep(record, step, failure, input.locations);
    return result;
  }
  if (failure) record.detail = `provider failed after ${record.counts.pages} pages (${failure.message})`;
  if (isAiDatabase(step)) walk.aiDatabaseAnswered = true;
  if (record.counts.returned === 0) stopped(record, 'no_result', 'no matches');
  else if (kept.length === 0 && (record.verify_dropped ?? 0) > 0) {
    stopped(record, 'company_mismatch', 'no returned row is verifiably at the requested company');
  }
  return result;
}

/** A page of people verified against the requested company and flagged; the rest counted as dropped. */
function verified(walk: Walk, step: SearchStep, record: StepRecord, people: PersonRecord[], dropped: FilterKey[]) {
  const { filters } = walk.request;
  const company = companyRequestOf(filters);
  const wantedLocations = listOf(filters.locations);
  const kept: ResultRow[] = [];
  for (const person of people) {
    if (step.companyMatch === 'loose' && company && !verifiesCompany(company, person.company, person.company_domain)) {
      record.verify_dropped = (record.verify_dropped ?? 0) + 1;
      continue;
    }
    kept.push({
      ...person,
      _source: step.name,
      ...(step.verificationRequired && {
        verification_required: true as const,
        verification_reason: step.verificationReason ?? 'unverified profile search result',
      }),
      ...(step.locationTokens === 'free_text' &&
        wantedLocations.length > 0 &&
        !insideLocations(person.location, wantedLocations) && { outside_locations: true as const }),
      ...(dropped.length > 0 && { filters_relaxed: dropped }),
    });
  }
  return kept;
}

/** One deterministic charge per billed step (never for a step whose vendor failed before answering). */
function bill(walk: Walk, step: SearchStep, index: number, record: StepRecord, cost: number): void {
  if (cost <= 0) return;
  walk.charges.push({
    charge_id: chargeIdOf(walk.run.id, index, step.name),
    millicredits: cost,
    description: `people_search ${step.name}`,
  });
  record.charged = cost / 1000;
  record.counts.charged = step.costUnit === 'record' ? record.counts.returned : record.counts.pages;
}

/** The provider that can express every capability-gated filter (the AI people database). */
function isAiDatabase(step: SearchStep): boolean {
  const gated: FilterKey[] = ['skills', 'keywords', 'months_in_role', 'company_sizes', 'industries'];
  return gated.every((key) => step.filters.has(key));
}
