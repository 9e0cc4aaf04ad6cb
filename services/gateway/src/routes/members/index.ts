import type { FastifyInstance } from 'fastify';
import type { GatewayDependencies } from '../../dependencies';
import { deletedBody } from '../../contract';
import { memberRows } from './rows';
import { memberErrors, memberParams, memberRow, roleBody, ROLES } from './schemas';

/**
 * Removing a member and changing a role (decision 0087). The auth service decides who may, keeps
 * every workspace with an owner and ends a removed member's access; the gateway only translates.
 */
export async function memberRoutes(app: FastifyInstance, deps: GatewayDependencies): Promise<void> {
  const { auth } = deps.clients;

  app.delete<{ Params: { user_id: string } }>(
    '/api/v2/workspaces/members/:user_id',
    { schema: { params: memberParams, response: { 200: deletedBody, ...memberErrors } } },
    async (request) => {
      const { member } = await auth.removeWorkspaceMember(
        { userId: request.params.user_id },
        { caller: request.caller },
      );
      return { ok: true, deleted: member!.userId };
    },
  );

  app.put<{ Params: { user_id: string }; Body: { role: (typeof ROLES)[number] } }>(
    '/api/v2/workspaces/members/:user_id/role',
    { schema: { params: memberParams, body: roleBody, response: { 200: memberRow, ...memberErrors } } },
    async (request) => {
      const { caller } = request;
      const { member } = await auth.changeMemberRole(
        { userId: request.params.user_id, role: request.body.role },
        { caller },
      );
      const [row] = await memberRows(deps.clients, caller, [member!]);
      return row;
    },
  );
}
