import { errors, type Caller, type Clock } from '@rde/platform';
import { mayRemove, type MemberRow } from '../domain/roles';
import type { AuthStore } from '../store';
import type { Ownership } from './ownership';

/**
 * Ends a membership and with it every way back in (decision 0087): the user's API keys and browser
 * sessions for the workspace are revoked (not merely refused, so a later re-invite does not revive
 * them) and pending invites to or from them are withdrawn. MCP grants end through the membership
 * check at use (decision 0029). Their charges stay in the ledger.
 */
export class RemoveMember {
  constructor(
    private readonly store: AuthStore,
    private readonly ownership: Ownership,
    private readonly clock: Clock,
  ) {}

  /** The owner removes anyone, a member only themselves (403 otherwise, before the member is looked up). */
  async byCaller(caller: Caller, userId: string): Promise<MemberRow> {
    if (!mayRemove(await this.ownership.current(caller), userId)) {
      throw errors.forbidden('Only the workspace owner can remove members');
    }
    return this.remove(caller.workspaceId, userId);
  }

  /** The operator's removal (`rde admin remove-member`): by email, under the same rules. */
  async byOperator(workspaceId: string, email: string): Promise<MemberRow> {
    const [workspace, user] = await Promise.all([
      this.store.workspaces.byId(workspaceId),
      this.store.users.byEmail(email),
    ]);
    if (!workspace) throw errors.notFound('Workspace not found');
    return this.remove(workspace._id, user?._id ?? '');
  }

  /**
   * 404 for a non-member, 409 for the last owner. Credentials go before the membership: a failure
   * half way leaves a member without keys whom a retry removes, never an ex-member with live keys.
   */
  async remove(workspaceId: string, userId: string): Promise<MemberRow> {
    const membership = await this.ownership.membership(workspaceId, userId);
    if (membership.role === 'owner') await this.ownership.demote(workspaceId, userId);
    const user = await this.store.users.byId(userId);
    const now = this.clock.now();
    await Promise.all([
      this.store.keys.revokeHeldBy(workspaceId, userId, now),
      this.store.sessions.revokeHeldBy(workspaceId, userId, now),
      this.store.invites.withdrawPending(workspaceId, { email: user?.email ?? '', userId }),
    ]);
    if (!(await this.store.memberships.remove(workspaceId, userId))) {
      throw errors.notFound('Member not found in this workspace');
    }
    return { user_id: userId, email: user?.email ?? '', role: membership.role };
  }
}
