import { errors, type Caller } from '@rde/platform';
import { mayChangeRoles, type MemberRow, type Role } from '../domain/roles';
import type { AuthStore } from '../store';
import type { Ownership } from './ownership';

/** Makes a member an owner or an owner a member, keeping at least one owner (decision 0087). */
export class ChangeMemberRole {
  constructor(
    private readonly store: AuthStore,
    private readonly ownership: Ownership,
  ) {}

  /** Owner only (403); 404 for a non-member; 409 for demoting the last owner; the same role changes nothing. */
  async change(caller: Caller, userId: string, role: Role): Promise<MemberRow> {
    if (!mayChangeRoles(await this.ownership.current(caller))) {
      throw errors.forbidden("Only the workspace owner can change members' roles");
    }
    const membership = await this.ownership.membership(caller.workspaceId, userId);
    if (membership.role !== role) {
      if (role === 'member') await this.ownership.demote(caller.workspaceId, userId);
      else await this.store.memberships.changeRole(caller.workspaceId, userId, 'member', 'owner');
    }
    const user = await this.store.users.byId(userId);
    return { user_id: userId, email: user?.email ?? '', role };
  }
}
