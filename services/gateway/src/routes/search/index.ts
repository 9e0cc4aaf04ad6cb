import type { FastifyInstance } from 'fastify';
import type { Caller } from '@rde/platform';
import { publicJson, publicRoutes } from '@rde/proto';
import { errorResponses } from '../../contract';
import type { GatewayDependencies } from '../../dependencies';
import { capabilityParams, searchBody, searchResult, toolBody } from './schemas';

const { ROUTES, routerPath } = publicRoutes;
/** A search walks up to four vendors, each given up to the vendor timeout: more than the default deadline. */
const SEARCH_DEADLINE_MS = 90_000;
/** Beyond the shared statuses (contract.ts): 402 when the balance cannot hold a step. */
const responses = { 200: searchResult, ...errorResponses(402) };

/** People search (spec "Search"), and the same search as the `people_search` waterfall tool. */
export async function searchRoutes(app: FastifyInstance, deps: GatewayDependencies): Promise<void> {
  const search = async (body: object, { caller, idempotentRunId }: { caller: Caller; idempotentRunId?: string }) => {
    const { resultJson, meta } = await deps.clients.waterfall.searchPeople(
      // Keyed by an Idempotency-Key, the retry after this gateway died joins the same search.
      { bodyJson: Buffer.from(JSON.stringify(body)), runId: idempotentRunId ?? '' },
      { caller, deadlineMs: SEARCH_DEADLINE_MS },
    );
    return { ...(JSON.parse(resultJson.toString('utf8')) as object), _meta: publicJson.searchMeta(meta!) };
  };

  app.post<{ Params: { capability: string }; Body: object }>(
    routerPath(ROUTES.search),
    { config: { idempotency: 'header' }, schema: { params: capabilityParams, body: searchBody, response: responses } },
    async (request) => search(request.body ?? {}, request),
  );

  app.post<{ Body: { payload?: object; rows?: unknown[]; dry_run?: boolean } }>(
    '/tools/people_search',
    { config: { idempotency: 'header' }, schema: { body: toolBody, response: responses } },
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
