import type { FastifyInstance } from 'fastify';
import { errors, type Caller } from '@rde/platform';
import type { GatewayDependencies } from '../../dependencies';
import { memberRows, usd } from '../members/rows';
import {
  capResult,
  errorsOf,
  memberCapBody,
  memberCapList,
  memberCapResult,
  noQuery,
  sessionCapBody,
  spendingCapBody,
} from './schemas';
import { memberParams } from '../members/schemas';

const MILLICREDITS_PER_CREDIT = 1000;

/** USD → whole cents; the cap rounds to the cent (decision 0020), and an amount above 0 is at least one. */
export const cents = (usd: number) => Math.max(1, Math.round(usd * 100));
/** Credits → millicredits; an amount above 0 is at least one. */
const millicredits = (credits: number) => Math.max(1, Math.round(credits * MILLICREDITS_PER_CREDIT));

/** The three spend caps (spec "Billing" and "Limits"); billing enforces the owner rule and the caps. */
export async function capRoutes(app: FastifyInstance, deps: GatewayDependencies): Promise<void> {
  const { spendCaps, auth } = deps.clients;
  const capSchema = (body: object | undefined) => ({
    ...(body && { body }),
    response: { 200: capResult, ...errorsOf(403) },
  });

  app.put<{ Body: { cap: number } }>(
    '/api/v2/billing/spending-cap',
    { schema: capSchema(spendingCapBody) },
    async (request) => {
      const { capMillicredits } = await spendCaps.setWorkspaceCap(
        { capMillicredits: millicredits(request.body.cap) },
        { caller: request.caller },
      );
      return { cap: capMillicredits / MILLICREDITS_PER_CREDIT };
    },
  );

  app.delete('/api/v2/billing/spending-cap', { schema: capSchema(undefined) }, async (request) => {
    await spendCaps.setWorkspaceCap({ capMillicredits: 0 }, { caller: request.caller });
    return { cap: null };
  });

  app.put<{ Body: { cap: number } }>(
    '/api/v2/billing/session-cap',
    { schema: capSchema(sessionCapBody) },
    async (request) => {
      const capCents = cents(request.body.cap);
      const answer = await spendCaps.setSessionDefaultCap({ capCents }, { caller: request.caller });
      return { cap: usd(answer.capCents) };
    },
  );

  app.delete('/api/v2/billing/session-cap', { schema: capSchema(undefined) }, async (request) => {
    await spendCaps.setSessionDefaultCap({ capCents: 0 }, { caller: request.caller });
    return { cap: null };
  });

  /**
   * Billing refuses a non-owner (403) before anything; only the owner gets the spec's 404 for a
   * user who is not a member of the workspace.
   */
  const setMemberCap = async (caller: Caller, userId: string, capCents: number) => {
    if (caller.role === 'owner') {
      const { members } = await auth.listMembers({}, { caller });
      if (!members.some((member) => member.userId === userId))
        throw errors.notFound('Member not found in this workspace');
    }
    return spendCaps.setMemberCap({ userId, capCents }, { caller });
  };

  const memberCapSchema = (body: object | undefined) => ({
    params: memberParams,
    ...(body && { body }),
    response: { 200: memberCapResult, ...errorsOf(403, 404) },
  });

  app.put<{ Params: { user_id: string }; Body: { cap_usd: number } }>(
    '/api/v2/workspaces/members/:user_id/spend-cap',
    { schema: memberCapSchema(memberCapBody) },
    async (request) => {
      const capCents = cents(request.body.cap_usd);
      const answer = await setMemberCap(request.caller, request.params.user_id, capCents);
      return { user_id: answer.userId, cap_usd: usd(answer.capCents) };
    },
  );

  app.delete<{ Params: { user_id: string } }>(
    '/api/v2/workspaces/members/:user_id/spend-cap',
    { schema: memberCapSchema(undefined) },
    async (request) => {
      await setMemberCap(request.caller, request.params.user_id, 0);
      return { user_id: request.params.user_id, cap_usd: null };
    },
  );

  app.get(
    '/api/v2/workspaces/members/spend-caps',
    { schema: { querystring: noQuery, response: { 200: memberCapList, ...errorsOf() } } },
    async (request) => {
      const { members } = await auth.listMembers({}, { caller: request.caller });
      return { members: await memberRows(deps.clients, request.caller, members) };
    },
  );
}
