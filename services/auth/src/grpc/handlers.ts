import { errors, type Caller, type Handlers } from '@rde/platform';
import type { auth } from '@rde/proto';
import {
  addMemberInput,
  changeRoleInput,
  createKeyInput,
  createWorkspaceInput,
  parseInput,
  removeMemberInput,
} from '../domain/inputs';
import type { AccountService } from '../app/workspaces';
import type { KeyService } from '../app/api-keys';
import type { ChangeMemberRole } from '../app/change-member-role';
import type { RemoveMember } from '../app/remove-member';
import { toApiKey, toMember, toUser, toWorkspace } from './messages';

/** The use cases that change who belongs to a workspace. */
export interface MemberChanges {
  readonly remove: RemoveMember;
  readonly roles: ChangeMemberRole;
}

/** Proto ⇄ service translation only; the rules live in the services. */
export function authHandlers(
  accounts: AccountService,
  keys: KeyService,
  members: MemberChanges,
): Handlers<typeof auth.AuthServiceService> {
  return {
    async resolveBearer(request) {
      return { caller: await keys.resolveBearer(request.token, request.workspaceId) };
    },

    async createWorkspace(request) {
      const created = await accounts.createWorkspace(parseInput(createWorkspaceInput, request));
      return {
        workspace: toWorkspace(created.workspace),
        owner: toUser(created.owner),
        key: toApiKey(created.key.key),
        keyPlaintext: created.key.plaintext,
      };
    },

    async addMember(request) {
      const added = await accounts.addMember(parseInput(addMemberInput, request));
      return {
        user: toUser(added.user),
        role: added.role,
        key: toApiKey(added.key.key),
        keyPlaintext: added.key.plaintext,
      };
    },

    async removeMember(request) {
      const { workspaceId, email } = parseInput(removeMemberInput, request);
      const removed = await members.remove.byOperator(workspaceId, email);
      return { user: { id: removed.user_id, email: removed.email } };
    },

    async removeWorkspaceMember(request, { caller }) {
      return { member: toMember(await members.remove.byCaller(required(caller), request.userId)) };
    },

    async changeMemberRole(request, { caller }) {
      const { userId, role } = parseInput(changeRoleInput, request);
      return { member: toMember(await members.roles.change(required(caller), userId, role)) };
    },

    async getMembership(request) {
      return { role: await accounts.membershipOf(request.workspaceId, request.userId) };
    },

    async findWorkspace(request) {
      return { workspace: toWorkspace(await accounts.workspace(request.workspaceId)) };
    },

    async getWorkspace(_request, { caller }) {
      const view = await accounts.view(required(caller));
      return {
        workspace: toWorkspace(view.workspace),
        user: toUser(view.user),
        role: view.role,
        seatsUsed: view.seatsUsed,
      };
    },

    async listMembers(_request, { caller }) {
      return { members: (await accounts.members(required(caller))).map(toMember) };
    },

    async listCallerWorkspaces(_request, { caller }) {
      const { user, workspaces } = await accounts.workspacesOf(required(caller));
      return {
        user: toUser(user),
        workspaces: workspaces.map(({ workspace, role }) => ({ workspace: toWorkspace(workspace), role })),
      };
    },

    async createKey(request, { caller }) {
      const { name } = parseInput(createKeyInput, request);
      const minted = await keys.create(required(caller), name);
      return { key: toApiKey(minted.key), keyPlaintext: minted.plaintext };
    },

    async listKeys(_request, { caller }) {
      return { keys: (await keys.list(required(caller))).map(toApiKey) };
    },

    async revokeKey(request, { caller }) {
      return { key: toApiKey(await keys.revoke(required(caller), request.keyId)) };
    },
  };
}

/** Caller-scoped RPCs act only for a caller the gateway resolved. */
export function required(caller: Caller | undefined): Caller {
  if (!caller?.workspaceId || !caller.userId) throw errors.unauthenticated();
  return caller;
}
