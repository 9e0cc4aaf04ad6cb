import { Readable, pipeline } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { csvWriter } from '@rde/platform';
import { publicRoutes, type auth } from '@rde/proto';
import type { GatewayDependencies } from '../../dependencies';
import { capRoutes } from './caps';
import { overviewRoutes } from './overview';
import { parseJson, withSeatsUsed } from './plan-state';
import { subscriptionRoutes } from './subscriptions';
import { LEDGER_COLUMNS, LEDGER_PAGE, creditsOrZero, ledgerRow, ledgerRows } from './ledger';
import { balanceSchema, meSchema, noQuery, planCatalogSchema } from './schemas';

const { ROUTES, routerPath } = publicRoutes;

const RECENT_ENTRIES = 10;

/** The billing reads: the public plan catalog, the caller's plan state, balance and ledger export. */
export async function billingRoutes(app: FastifyInstance, deps: GatewayDependencies): Promise<void> {
  const { clients } = deps;
  await capRoutes(app, deps);
  await subscriptionRoutes(app, deps);
  await overviewRoutes(app, deps);

  app.get(
    '/api/v2/billing/plans',
    {
      config: { public: true },
      schema: { security: [], querystring: noQuery, response: { 200: planCatalogSchema } },
    },
    async () => parseJson((await clients.billing.listPlans({})).catalogJson),
  );

  app.get('/api/v2/me', { schema: { querystring: noQuery, response: { 200: meSchema } } }, async (request) => {
    const { caller } = request;
    const [membership, { planStateJson }] = await Promise.all([
      clients.auth.getWorkspace({}, { caller }),
      clients.billing.getPlanState({}, { caller }),
    ]);
    return {
      workspace: workspaceJson(membership.workspace),
      user: { id: membership.user?.id ?? '', email: membership.user?.email ?? '' },
      role: membership.role,
      ...withSeatsUsed(planStateJson, membership),
    };
  });

  app.get(
    routerPath(ROUTES.balance),
    { schema: { querystring: noQuery, response: { 200: balanceSchema } } },
    async (request) => {
      const { caller } = request;
      const [membership, { account, recentEntries, planStateJson }] = await Promise.all([
        clients.auth.getWorkspace({}, { caller }),
        clients.billing.getBalance({ recent: RECENT_ENTRIES }, { caller }),
      ]);
      const balance = creditsOrZero(account?.balance);
      const reserved = creditsOrZero(account?.reserved);
      const available = creditsOrZero(account?.available);
      return {
        balance,
        reserved,
        available,
        recent_ledger: recentEntries.map(ledgerRow),
        ...withSeatsUsed(planStateJson, membership),
        // Decision 0004: while holds are open the metered balance is provisional (balance − reserved).
        _meta: { balance: available, reserved, settled: (account?.openHolds ?? 0) === 0 },
      };
    },
  );

  app.get(
    '/api/v2/billing/ledger.csv',
    {
      schema: {
        querystring: noQuery,
        response: {
          200: {
            description: `CSV with a header row: ${LEDGER_COLUMNS.join(', ')}`,
            content: { 'text/csv': { schema: { type: 'string' } } },
          },
        },
      },
    },
    async (request, reply) => {
      const { caller } = request;
      const first = await clients.billing.listLedger({ page: { offset: 0, limit: LEDGER_PAGE } }, { caller });
      const csv = pipeline(
        Readable.from(ledgerRows(clients, caller, first)),
        csvWriter({ header: true, columns: [...LEDGER_COLUMNS] }),
        (error) => {
          // Headers are gone by now: the broken stream is all the client can be told.
          if (error) request.log.error({ err: error }, 'ledger export failed mid-stream');
        },
      );
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', 'attachment; filename="ledger.csv"')
        .send(csv);
    },
  );
}

function workspaceJson(workspace: auth.Workspace | undefined) {
  return {
    id: workspace?.id ?? '',
    name: workspace?.name ?? '',
    owner_user_id: workspace?.ownerUserId ?? '',
    created_at: new Date(workspace?.createdAtMs ?? 0).toISOString(),
  };
}
