import type { FastifyInstance } from 'fastify';
import type { Caller } from '@rde/platform';
import type { waterfall } from '@rde/proto';
import { credits } from '../../credits';
import type { GatewayDependencies } from '../../dependencies';
import { errorResponses } from '../../contract';
import { capabilityParams, searchBody, searchResult, toolBody } from './schemas';

const tags = ['search'];
/** A search walks up to four vendors, each given up to the vendor timeout: more than the default deadline. */
const SEARCH_DEADLINE_MS = 90_000;
/** 402: billing refused the hold for a reason other than the balance (e.g. a spending cap). */
const responses = { 200: searchResult, ...errorResponses(402) };

/** People search (spec "Search"), and the same search as the `people_search` waterfall tool. */
export async function searchRoutes(app: FastifyInstance, deps: GatewayDependencies): Promise<void> {
  const search = async (body: object, { caller }: { caller: Caller }) => {
    const { resultJson, meta } = await deps.clients.waterfall.searchPeople(
      { bodyJson: Buffer.from(JSON.stringify(body)) },
      { caller, deadlineMs: SEARCH_DEADLINE_MS },
    );
    return { ...(JSON.parse(resultJson.toString('utf8')) as object), _meta: metaOf(meta!) };
  };

  app.post<{ Params: { capability: string }; Body: object }>(
    '/search/:capability',
    { schema: { tags, params: capabilityParams, body: searchBody, response: responses } },
    async (request) => search(request.body ?? {}, request),
  );

  app.post<{ Body: { payload?: object; rows?: unknown[]; dry_run?: boolean } }>(
    '/tools/people_search',
    { schema: { tags: ['tools', ...tags], body: toolBody, response: responses } },
    async (request, reply) => {
      const { payload, rows, dry_run: dryRun } = request.body ?? {};
      if (rows !== undefined) {
        return reply.code(400).send({
          error: 'invalid_payload',
          detail: 'people_search is a search waterfall: it takes payload only, not rows',
          unknown: ['rows'],
          expected: ['payload', 'dry_run'],
        });
      }
      return search({ ...payload, ...(dryRun !== undefined && { dry_run: dryRun }) }, request);
    },
  );
}

/** The `_meta` block with only the fields that apply. */
function metaOf(meta: waterfall.SearchMeta) {
  const fields = {
    charged: credits(meta.charged),
    credits_charged: credits(meta.creditsCharged),
    balance: credits(meta.balance),
    reserved: credits(meta.reserved),
    settled: meta.settled,
    run_id: meta.runId || undefined,
    dataset_id: meta.datasetId || undefined,
    row_count: meta.rowCount,
    would_charge_credits: credits(meta.wouldChargeCredits),
    ignored_query_keys: meta.ignoredQueryKeys,
    warnings: JSON.parse(meta.warningsJson.toString('utf8') || '[]') as unknown,
  };
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
}
