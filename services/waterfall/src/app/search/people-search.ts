import { answerJsonOf, errors, isRunId, newRunId, totalOf, type Caller, type Logger } from '@rde/platform';
import type { WaterfallClients } from '../../clients';
import {
  newRecord,
  nothingHeld,
  previewAnswer,
  stopped,
  warningsOf,
  type SearchAnswer,
} from '../../domain/search/answer';
import { searchStepOf, type SearchStep } from '../../domain/search/capabilities';
import type { FilterKey } from '../../domain/search/filters';
import { PeopleSet, type ResultRow } from '../../domain/search/people';
import { decideStep, worstCaseOf } from '../../domain/search/plan';
import { PEOPLE_SEARCH, searchRequestOf, stepWorstCase, type SearchRequest } from '../../domain/search/request';
import { datasetIdOf } from '../../domain/ids';
import { BilledRuns, meteringAfterRun, type OpenRun } from './billed-run';
import { SearchProviders } from './search-providers';
import { merge, type Walk } from './search-walk';
import { callStep } from './step-call';

export interface SearchDependencies {
  readonly clients: WaterfallClients;
  readonly billedRuns: BilledRuns;
  readonly logger: Logger;
  /** Deadline of one provider invocation. */
  readonly stepDeadlineMs: number;
}

/**
 * People search (spec "Search"): bind the filters, decide every step from its declared
 * capabilities, hold the worst case of the whole walk once, walk, verify, dedupe, settle once.
 */
export class PeopleSearch {
  private readonly providers: SearchProviders;

  constructor(private readonly deps: SearchDependencies) {
    this.providers = new SearchProviders(deps.clients.catalog, deps.logger, deps.stepDeadlineMs);
  }

  /**
   * `callerRunId` names the search for a caller that may repeat it (a keyed request, a workflow
   * step): a repeat answers what the ended search answered, or walks a cut-short one again.
   */
  async search(body: Record<string, unknown>, caller: Caller | undefined, callerRunId = ''): Promise<SearchAnswer> {
    if (!caller?.workspaceId) throw errors.unauthenticated();
    if (callerRunId && !isRunId(callerRunId)) {
      throw errors.badRequest({ detail: 'run_id must be run_ followed by 24 hexadecimal digits' });
    }
    const request = await searchRequestOf(body, async () =>
      (await this.deps.clients.catalog.getWaterfall({ tool: PEOPLE_SEARCH })).steps.map(searchStepOf),
    );
    const worstCase = request.chain.reduce((sum, step) => sum + stepWorstCase(step, request), 0);
    if (request.preview) return previewAnswer(request, worstCase);
    const answered =
      callerRunId && (await this.deps.billedRuns.answered<SearchAnswer>(callerRunId, PEOPLE_SEARCH, caller));
    if (answered) return answered;
    const run = await this.deps.billedRuns.open(callerRunId || newRunId(), PEOPLE_SEARCH, caller, worstCase);
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
      found.forEach((rows, index) => merge(walk, walk.steps[index], rows));
    } else {
      for (const [index, step] of request.chain.entries()) await this.runStep(walk, step, index, [], false);
    }
    if (walk.people.size === 0 && walk.aiDatabaseAnswered) await this.relaxedRetry(walk);
    const rows = request.coverage === 'single' ? walk.people.rows.slice(0, request.limit) : walk.people.rows;
    const charged = totalOf(walk.charges);
    const persisted = charged > 0 && rows.length > 0 ? await this.persist(run, rows) : undefined;
    const answer: SearchAnswer = {
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
    const finished = await this.deps.billedRuns.finish(run, {
      status: 'succeeded',
      charges: walk.charges,
      datasetId: persisted,
      rowCount: persisted ? rows.length : undefined,
      fields: { steps: walk.steps, answer_json: answerJsonOf(answer) },
    });
    // Another attempt of the same call finished first: both answer what was billed.
    return finished ? answer : this.answerOfFinished(run);
  }

  private async answerOfFinished(run: OpenRun): Promise<SearchAnswer> {
    const answered = await this.deps.billedRuns.answered<SearchAnswer>(run.id, PEOPLE_SEARCH, run.caller);
    if (!answered) throw new Error(`search ${run.id} finished but its answer is gone`);
    return answered;
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
    const locations = await this.providers.locationTokens(walk, step, index);
    if (locations === null) {
      walk.committed -= worst;
      return stopped(record, 'cant_scope_location', 'no location resolves to a token it accepts');
    }
    const { rows, cost } = await callStep(this.providers, walk, step, index, record, {
      dropped,
      wanted,
      locations,
      companies: decision.companies,
      deferred,
    });
    walk.committed += cost - worst;
    return rows;
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
