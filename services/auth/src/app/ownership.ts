import { errors, type Caller } from '@rde/platform';
import type { Role } from '../domain/roles';
import type { AuthStore, MembershipDocument } from '../store';

const LAST_OWNER_DETAIL = "This is the workspace's last owner: make another member an owner first";

/** Keeps every workspace with at least one owner while owners are demoted or removed. */
export class Ownership {
  constructor(private readonly store: AuthStore) {}

  /**
   * The membership of `userId` in the workspace, read now (a caller's role may be a cached answer);
   * 404 when there is none, so another workspace's user looks like an unknown one.
   */
  async membership(workspaceId: string, userId: string): Promise<MembershipDocument> {
    const membership = userId ? await this.store.memberships.of(workspaceId, userId) : null;
    if (!membership) throw errors.notFound('Member not found in this workspace');
    return membership;
  }

  /** The caller as they stand now: a demotion holds at once, whatever role the gateway cached. */
  async current(caller: Caller): Promise<{ userId: string; role: Role | '' }> {
    const membership = await this.store.memberships.of(caller.workspaceId, caller.userId);
    return { userId: caller.userId, role: membership?.role ?? '' };
  }

  /**
   * Makes an owner a member; 409 when nobody else owns the workspace. The change is made first and
   * checked after: two owners demoting each other at once both find no owner left and both undo, so
   * no interleaving ends with none. The workspace's named owner passes to the earliest one left.
   */
  async demote(workspaceId: string, userId: string): Promise<void> {
    if (!(await this.store.memberships.changeRole(workspaceId, userId, 'owner', 'member'))) return;
    const [successor] = await this.store.memberships.owners(workspaceId);
    if (!successor) {
      await this.store.memberships.changeRole(workspaceId, userId, 'member', 'owner');
      throw errors.conflict({ detail: LAST_OWNER_DETAIL });
    }
    await this.store.workspaces.setOwner(workspaceId, userId, successor.user_id);
  }
}
