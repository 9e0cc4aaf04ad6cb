import { chargeIdOf, errors, newRunId, RdeError, totalOf, type Caller, type Logger } from '@rde/platform';
import { catalog } from '@rde/proto';
import type { WaterfallClients } from '../clients';
import {
  failedStep,
  newRecord,
  nothingHeld,
  previewAnswer,
  stopped,
  warningsOf,
  type SearchAnswer,
  type StepRecord,
} from '../domain/search/answer';
import { searchStepOf, type SearchStep } from '../domain/search/capabilities';
import { verifiesCompany } from '../domain/search/company-match';
import { isPlainObject, listOf, type FilterKey } from '../domain/search/filters';
import { PeopleSet, insideLocations, type PersonRecord, type ResultRow } from '../domain/search/people';
import { decideStep, requestsOf, worstCaseOf, type PlannedRequest } from '../domain/search/plan';
import {
  companyRequestOf,
  PEOPLE_SEARCH,
  searchRequestOf,
  stepWorstCase,
  type SearchRequest,
} from '../domain/search/request';
import { datasetIdOf, invocationIdOf } from '../domain/ids';
import { BilledRuns, meteringAfterRun, type OpenRun } from './billed-run';
import type { RunCharge } from '../store/runs';

/** Numbered pages of a per-row or per-hit source requested ahead of the one being read. */
const PAGES_AHEAD = 4;

export interface SearchDependencies {
  readonly clients: WaterfallClients;
  readonly billedRuns: BilledRuns;
  readonly logger: Logger;
  /** Deadline of one provider invocation. */
  readonly stepDeadlineMs: number;
}

/** The walk in progress: rows, steps, charges, money left in the hold. */
interface Walk {
  readonly run: OpenRun;
  readonly request: SearchRequest;
  readonly people: PeopleSet;
  readonly steps: StepRecord[];
  readonly charges: RunCharge[];
  /** Steps that answered `unsupported_fields`, for the relaxed retry. */
  readonly unsupported: { step: SearchStep; fields: FilterKey[] }[];
  /** Millicredits spent by finished steps plus the worst case of steps still running. */
  committed: number;
  /** Whether the provider that can express every capability-gated filter answered. */
  aiDatabaseAnswered: boolean;
}

/**
 * People search (spec "Search"): bind the filters, decide every step from its declared
 * capabilities, hold the worst case of the whole walk once, walk, verify, dedupe, settle once.
 */
export class PeopleSearch {
  constructor(private readonly deps: SearchDependencies) {}

  async search(body: Record<string, unknown>, caller: Caller | undefined): Promise<SearchAnswer> {
    if (!caller?.workspaceId) throw errors.unauthenticated();
    const request = await searchRequestOf(body, async () =>
      (await this.deps.clients.catalog.getWaterfall({ tool: PEOPLE_SEARCH })).steps.map(searchStepOf),
    );
    const worstCase = request.chain.reduce((sum, step) => sum + stepWorstCase(step, request), 0);
    if (request.preview) return previewAnswer(request, worstCase);
    const run = await this.deps.billedRuns.open(newRunId(), PEOPLE_SEARCH, caller, worstCase);
    if ('refused' in run) return nothingHeld(request, run.refused);
    try {
      return await this.walk(run, request);
    } catch (error) {
      await this.deps.billedRuns.abandon(run, error);
      throw error;
    }
  }

  private async walk(run: OpenRun, request: SearchRequest): Promise<SearchAnswer> {
    const walk: Walk = {
      run,
      request,
      people: new PeopleSet(),
      steps: [],
      charges: [],
      unsupported: [],
      committed: 0,
      aiDatabaseAnswered: false,
    };
    if (request.coverage === 'max') {
      // Every source runs whatever the others find: all at once, merged in chain order so the same
      // person is always credited to the same step.
      const found = await Promise.all(request.chain.map((step, index) => this.runStep(walk, step, index, [], true)));
      found.forEach((rows, index) => this.merge(walk, walk.steps[index], rows));
    } else {
      for (const [index, step] of request.chain.entries()) await this.runStep(walk, step, index, [], false);
    }
    if (walk.people.size === 0 && walk.aiDatabaseAnswered) await this.relaxedRetry(walk);
    const rows = request.coverage === 'single' ? walk.people.rows.slice(0, request.limit) : walk.people.rows;
    const charged = totalOf(walk.charges);
    const persisted = charged > 0 && rows.length > 0 ? await this.persist(run, rows) : undefined;
    await this.deps.billedRuns.finish(run, {
      status: 'succeeded',
      charges: walk.charges,
      datasetId: persisted,
      rowCount: persisted ? rows.length : undefined,
      fields: { steps: walk.steps },
    });
    return {
      result: { results: rows, steps: walk.steps, hit: rows.length > 0 },
      meta: {
        charged,
        ...meteringAfterRun(run, charged),
        runId: run.id,
        ...(persisted && { datasetId: persisted, rowCount: rows.length }),
        ignoredQueryKeys: request.ignored,
        warnings: warningsOf(request, rows),
      },
    };
  }

  /** Rule 4: the steps that could not express some fields run once more without them. */
  private async relaxedRetry(walk: Walk): Promise<void> {
    const retries = [...walk.unsupported];
    for (const [offset, { step, fields }] of retries.entries()) {
      await this.runStep(walk, step, walk.request.chain.length + offset, fields, false);
    }
  }

  /**
   * Decides and runs one step. Its rows join the collected people as its pages arrive, or, when
   * `deferred` (steps running at once), are returned for the caller to merge in chain order.
   */
  private async runStep(
    walk: Walk,
    step: SearchStep,
    index: number,
    dropped: FilterKey[],
    deferred: boolean,
  ): Promise<ResultRow[]> {
    const { request } = walk;
    const record = newRecord(step, dropped);
    walk.steps.push(record);
    const wanted = request.coverage === 'single' ? request.limit - walk.people.size : request.limit;
    if (wanted <= 0) return stopped(record, 'skip', 'limit already collected; not called, not billed');
    const decision = decideStep(step, request.filters, dropped);
    if (!decision.run) {
      stopped(record, decision.outcome, decision.detail);
      if (decision.unsupportedFields) {
        record.unsupported_fields = decision.unsupportedFields;
        if (dropped.length === 0) walk.unsupported.push({ step, fields: decision.unsupportedFields });
      }
      return [];
    }
    const worst = worstCaseOf(step, wanted, decision.companies.length);
    if (worst > walk.run.held - walk.committed) {
      return stopped(record, 'insufficient_credits', 'the balance does not cover this step');
    }
    walk.committed += worst;
    const locations = await this.locationTokens(walk, step, index);
    if (locations === null) {
      walk.committed -= worst;
      return stopped(record, 'cant_scope_location', 'no location resolves to a token it accepts');
    }
    const { rows, cost } = await this.callStep(walk, step, index, record, {
      dropped,
      wanted,
      locations,
      companies: decision.companies,
      deferred,
    });
    walk.committed += cost - worst;
    return rows;
  }

  private async callStep(
    walk: Walk,
    step: SearchStep,
    index: number,
    record: StepRecord,
    input: {
      dropped: FilterKey[];
      wanted: number;
      locations?: string[];
      companies: readonly string[];
      deferred: boolean;
    },
  ): Promise<{ rows: ResultRow[]; cost: number }> {
    const anchors = input.companies.length > 0 ? input.companies : [undefined];
    const kept: ResultRow[] = [];
    let cost = 0;
    let requestNo = 0;
    let failure: catalog.ProviderFailure | undefined;
    for (const company of anchors) {
      const planned = requestsOf(step, { filters: walk.request.filters, ...input, company });
      for await (const { answer, rows } of this.pages(walk.run, step, index, planned, requestNo)) {
        if (answer.failure) {
          failure = answer.failure;
          break;
        }
        record.counts.pages += 1;
        cost += Number(answer.cost?.millicredits ?? 0);
        const people = JSON.parse(answer.peopleJson.toString('utf8') || '[]') as PersonRecord[];
        record.counts.returned += people.length;
        const verified = this.verified(walk, step, record, people, input.dropped);
        kept.push(...verified);
        if (!input.deferred) this.merge(walk, record, verified);
        if (people.length < rows || this.filled(walk)) break;
      }
      requestNo += planned.length;
      if (failure || this.filled(walk)) break;
    }
    this.bill(walk, step, index, record, cost);
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

  private filled(walk: Walk): boolean {
    return walk.request.coverage === 'single' && walk.people.size >= walk.request.limit;
  }

  /** Adds a step's rows to the people collected, deduplicated; `single` stops at `limit`. */
  private merge(walk: Walk, record: StepRecord, rows: readonly ResultRow[]): void {
    for (const row of rows) {
      if (this.filled(walk)) return;
      if (walk.people.add(row)) record.counts.new += 1;
    }
  }

  /**
   * The answers to a step's page requests, in page order. Cursor pages follow each other; numbered
   * pages of a source that bills per row or per hit are fetched a few at a time ahead (a page past
   * the end costs nothing there); a source billed per request asks one page at a time, so an early
   * short page stops the requests.
   */
  private async *pages(run: OpenRun, step: SearchStep, index: number, planned: PlannedRequest[], first: number) {
    const ahead = step.paging.style === 'cursor' || step.costUnit === 'call' ? 1 : PAGES_AHEAD;
    const started: Promise<catalog.InvokeProviderResponse>[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < planned.length; page++) {
      while (started.length < Math.min(planned.length, page + ahead)) {
        const request = planned[started.length];
        if (step.paging.style === 'cursor' && cursor) request.payload[step.paging.cursor] = cursor;
        started.push(this.invoke(run, index, step, first + started.length, request.payload));
      }
      const answer = await started[page];
      yield { answer, rows: planned[page].rows };
      if (step.paging.style === 'cursor') {
        cursor = answer.failure ? undefined : cursorOf(answer, step.paging.next);
        if (!cursor) return;
      }
    }
  }

  /** A page of people verified against the requested company and flagged; the rest counted as dropped. */
  private verified(walk: Walk, step: SearchStep, record: StepRecord, people: PersonRecord[], dropped: FilterKey[]) {
    const { filters } = walk.request;
    const company = companyRequestOf(filters);
    const wantedLocations = listOf(filters.locations);
    const kept: ResultRow[] = [];
    for (const person of people) {
      if (
        step.companyMatch === 'loose' &&
        company &&
        !verifiesCompany(company, person.company, person.company_domain)
      ) {
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
  private bill(walk: Walk, step: SearchStep, index: number, record: StepRecord, cost: number): void {
    if (cost <= 0) return;
    walk.charges.push({
      charge_id: chargeIdOf(walk.run.id, index, step.name),
      millicredits: cost,
      description: `people_search ${step.name}`,
    });
    record.charged = cost / 1000;
    record.counts.charged = step.costUnit === 'record' ? record.counts.returned : record.counts.pages;
  }

  /**
   * The query's locations as the step accepts them: place names lower-cased, metro codes looked up
   * through the step's declared look-up method (free), free text as given. null: none resolves.
   */
  private async locationTokens(walk: Walk, step: SearchStep, index: number): Promise<string[] | null | undefined> {
    const places = listOf(walk.request.filters.locations);
    if (places.length === 0 || !step.bind.locations) return undefined;
    if (step.locationTokens === 'place_name') return places.map((place) => place.toLowerCase());
    if (step.locationTokens !== 'metro_code' || !step.locationLookup) return places;
    const lookup = step.locationLookup;
    const codes = new Set<string>();
    for (const [n, place] of places.entries()) {
      const answer = await this.invoke(walk.run, index, { ...step, method: lookup.method }, 1000 + n, {
        [lookup.parameter]: place,
      });
      const found = answer.failure ? [] : rowsAtPath(answer.resultJson, lookup.rows);
      found.forEach((row) => typeof row[lookup.code] === 'string' && codes.add(row[lookup.code] as string));
    }
    return codes.size > 0 ? [...codes] : null;
  }

  /**
   * One provider request through the catalog. A request the catalog could not complete (refused
   * payload, deadline, catalog unavailable) is that step's failure, like a vendor's: the walk goes on
   * and nothing is charged for it.
   */
  private async invoke(
    run: OpenRun,
    index: number,
    step: Pick<SearchStep, 'tool' | 'method' | 'name'>,
    n: number,
    payload: object,
  ): Promise<catalog.InvokeProviderResponse> {
    try {
      return await this.deps.clients.catalog.invokeProvider(
        {
          tool: step.tool,
          method: step.method,
          payloadJson: Buffer.from(JSON.stringify(payload)),
          invocationId: invocationIdOf(run.id, index, `${step.tool}.${step.method}`, n),
        },
        { caller: run.caller, deadlineMs: this.deps.stepDeadlineMs },
      );
    } catch (error) {
      this.deps.logger.warn({ err: error, runId: run.id, step: step.name }, 'provider invocation failed');
      const reason = error instanceof RdeError && error.httpStatus === 400 ? 'rejected' : 'call_failed';
      return catalog.InvokeProviderResponse.fromPartial({
        failure: { reason, message: error instanceof Error ? error.message : String(error) },
      });
    }
  }

  /** Paid results are kept like tool rows: a dataset derived from the run id. */
  private async persist(run: OpenRun, rows: ResultRow[]): Promise<string> {
    const datasetId = datasetIdOf(run.id);
    await this.deps.clients.dataset.createDataset(
      {
        datasetId,
        name: `${PEOPLE_SEARCH} ${run.id}`,
        rowsJson: Buffer.from(JSON.stringify(rows)),
        source: `waterfall:${PEOPLE_SEARCH}`,
        runId: run.id,
        sessionId: run.caller.sessionId,
        copyOfDatasetId: '',
      },
      { caller: run.caller },
    );
    return datasetId;
  }
}

/** The provider that can express every capability-gated filter (the AI people database). */
function isAiDatabase(step: SearchStep): boolean {
  const gated: FilterKey[] = ['skills', 'keywords', 'months_in_role', 'company_sizes', 'industries'];
  return gated.every((key) => step.filters.has(key));
}

/** The value at `path` in a JSON answer. */
function jsonAt(json: Buffer, path: readonly string[]): unknown {
  let node: unknown = JSON.parse(json.toString('utf8') || '{}');
  for (const key of path) node = isPlainObject(node) ? node[key] : undefined;
  return node;
}

function cursorOf(answer: catalog.InvokeProviderResponse, path: readonly string[]): string | undefined {
  const cursor = jsonAt(answer.resultJson, path);
  return typeof cursor === 'string' && cursor ? cursor : undefined;
}

function rowsAtPath(json: Buffer, path: readonly string[]): Record<string, unknown>[] {
  const rows = jsonAt(json, path);
  return Array.isArray(rows) ? rows.filter(isPlainObject) : [];
}
