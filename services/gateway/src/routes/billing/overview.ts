import type { FastifyInstance } from 'fastify';
import type { GatewayDependencies } from '../../dependencies';
import { parseJson, withSeatsUsed } from './plan-state';
import { ledgerRow } from './ledger';
import { autoTopUpSchema, errorsOf, noQuery, overviewSchema } from './schemas';

const RECENT_ENTRIES = 10;

/** Billing reads any member may make: the overview and the auto top-up setting. */
export async function overviewRoutes(app: FastifyInstance, deps: GatewayDependencies): Promise<void> {
  const { overview, auth } = deps.clients;

  app.get(
    '/api/v2/billing/overview',
    { schema: { querystring: noQuery, response: { 200: overviewSchema, ...errorsOf() } } },
    async (request) => {
      const { caller } = request;
      const [membership, { overviewJson, recentEntries }] = await Promise.all([
        auth.getWorkspace({}, { caller }),
        overview.getOverview({ recent: RECENT_ENTRIES }, { caller }),
      ]);
      return {
        ...withSeatsUsed(overviewJson, membership),
        recent_ledger: recentEntries.map(ledgerRow),
      };
    },
  );

  app.get(
    '/api/v2/billing/auto-top-up',
    { schema: { querystring: noQuery, response: { 200: autoTopUpSchema, ...errorsOf() } } },
    async (request) => parseJson((await overview.getAutoTopUp({}, { caller: request.caller })).settingJson),
  );
}
