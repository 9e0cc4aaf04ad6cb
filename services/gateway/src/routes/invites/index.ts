import type { FastifyInstance } from 'fastify';
import type { signin } from '@rde/proto';
import type { GatewayDependencies } from '../../dependencies';
import { createdInvite, createInviteBody, errorResponses, inviteList } from './schemas';

/** Workspace invites: any member lists them; only the owner creates one (the auth service decides). */
export async function inviteRoutes(app: FastifyInstance, deps: GatewayDependencies): Promise<void> {
  const { signin: signIn } = deps.clients;

  app.get(
    '/api/v2/workspace/invites',
    { schema: { response: { 200: inviteList, ...errorResponses } } },
    async (request) => {
      const { invites } = await signIn.listInvites({}, { caller: request.caller });
      return { invites: invites.map(publicInvite), seat_available: true };
    },
  );

  app.post<{ Body: { email: string; spend_cap_usd?: number | null } }>(
    '/api/v2/workspace/invites',
    { schema: { body: createInviteBody, response: { 201: createdInvite, ...errorResponses } } },
    async (request, reply) => {
      const { email, spend_cap_usd: cap } = request.body;
      const created = await signIn.createInvite({ email, spendCapUsd: cap ?? undefined }, { caller: request.caller });
      return reply.code(201).send({ invite: publicInvite(created.invite!), invite_code: created.inviteCode });
    },
  );
}

function publicInvite(invite: signin.Invite) {
  return {
    id: invite.id,
    email: invite.email,
    spend_cap_usd: invite.spendCapUsd ?? null,
    invited_by: invite.invitedByUserId,
    created_at: new Date(invite.createdAtMs).toISOString(),
    accepted_at: invite.acceptedAtMs ? new Date(invite.acceptedAtMs).toISOString() : null,
  };
}
