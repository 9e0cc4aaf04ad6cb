import { RdeError, type Logger } from '@rde/platform';
import { catalog } from '@rde/proto';
import type { CatalogClient } from '../../clients';
import type { SearchStep } from '../../domain/search/capabilities';
import { isPlainObject, listOf } from '../../domain/search/filters';
import type { PlannedRequest } from '../../domain/search/plan';
import { invocationIdOf } from '../../domain/ids';
import type { OpenRun } from './billed-run';
import type { Walk } from './search-walk';

/** Numbered pages of a per-row or per-hit source requested ahead of the one being read. */
const PAGES_AHEAD = 4;

/** People search's provider requests through the catalog: pages, location look-ups, one invocation. */
export class SearchProviders {
  constructor(
    private readonly catalog: CatalogClient,
    private readonly logger: Logger,
    /** Deadline of one provider invocation. */
    private readonly stepDeadlineMs: number,
  ) {}

  /**
   * The answers to a step's page requests, in page order. Cursor pages follow each other; numbered
   * pages of a source that bills per row or per hit are fetched a few at a time ahead (a page past
   * the end costs nothing there); a source billed per request asks one page at a time, so an early
   * short page stops the requests.
   */
  async *pages(run: OpenRun, step: SearchStep, index: number, planned: PlannedRequest[], first: number) {
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

  /**
   * The query's locations as the step accepts them: place names lower-cased, metro codes looked up
   * through the step's declared look-up method (free), free text as given. null: none resolves.
   */
  async locationTokens(walk: Walk, step: SearchStep, index: number): Promise<string[] | null | undefined> {
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
  async invoke(
    run: OpenRun,
    index: number,
    step: Pick<SearchStep, 'tool' | 'method' | 'name'>,
    n: number,
    payload: object,
  ): Promise<catalog.InvokeProviderResponse> {
    try {
      return await this.catalog.invokeProvider(
        {
          tool: step.tool,
          method: step.method,
          payloadJson: Buffer.from(JSON.stringify(payload)),
          invocationId: invocationIdOf(run.id, index, `${step.tool}.${step.method}`, n),
        },
        { caller: run.caller, deadlineMs: this.stepDeadlineMs },
      );
    } catch (error) {
      this.logger.warn({ err: error, runId: run.id, step: step.name }, 'provider invocation failed');
      const reason = error instanceof RdeError && error.httpStatus === 400 ? 'rejected' : 'call_failed';
      return catalog.InvokeProviderResponse.fromPartial({
        failure: { reason, message: error instanceof Error ? error.message : String(error) },
      });
    }
  }
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
