import { errors, type Handlers } from '@rde/platform';
import type { waterfall } from '@rde/proto';
import type { Qualifier } from '../app/qualify/qualify';
import type { QualifyRuns } from '../app/qualify/qualify-run';
import type { PeopleSearch } from '../app/search/people-search';
import type { SearchMetaFields } from '../domain/search/answer';
import { isPlainObject } from '../domain/search/filters';
import { enrichHandlers, type EnrichHandlerDependencies } from './enrich-handlers';
import { credits, meteringView } from './metering-view';
import { qualifyHandlers } from './qualify-handlers';

export interface WaterfallHandlerDependencies extends EnrichHandlerDependencies {
  readonly peopleSearch: PeopleSearch;
  readonly qualifier: Qualifier;
  readonly qualifyRuns: QualifyRuns;
}

/** Translates the WaterfallService RPCs to the application, and back. */
export function waterfallHandlers(
  deps: WaterfallHandlerDependencies,
): Handlers<typeof waterfall.WaterfallServiceService> {
  return {
    ...enrichHandlers(deps),
    async searchPeople({ bodyJson, runId }, { caller }) {
      const { result, meta } = await deps.peopleSearch.search(jsonObject(bodyJson), caller, runId);
      return { resultJson: Buffer.from(JSON.stringify(result)), meta: metaView(meta) };
    },
    ...qualifyHandlers(deps.qualifier, deps.qualifyRuns),
  };
}

/** The request body; checked here too, since other callers (MCP, workflows) reach the RPC directly. */
function jsonObject(bytes: Buffer): Record<string, unknown> {
  let value: unknown;
  try {
    value = bytes.length === 0 ? {} : JSON.parse(bytes.toString('utf8'));
  } catch {
    throw errors.badRequest({ error: 'invalid_body', detail: 'the search body is not valid JSON' });
  }
  if (!isPlainObject(value))
    throw errors.badRequest({ error: 'invalid_body', detail: 'the search body must be an object' });
  return value;
}

function metaView(meta: SearchMetaFields): waterfall.SearchMeta {
  return {
    ...meteringView(meta),
    creditsCharged: credits(meta.charged),
    ignoredQueryKeys: meta.ignoredQueryKeys,
    warningsJson: Buffer.from(JSON.stringify(meta.warnings)),
  };
}
