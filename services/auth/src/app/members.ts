import type { Clock } from '@rde/platform';
import type { MemberCaps } from '../clients/billing';
import type { AuthStore, InviteDocument, UserDocument } from '../store';

/** Workspace membership as sign-in sees it: home workspaces and accepted invites. */
export class Members {
  constructor(
    private readonly store: AuthStore,
    private readonly clock: Clock,
    private readonly caps: Pick<MemberCaps, 'apply'>,
  ) {}

  /**
   * The user's home workspace: their first membership. A user with none gets a workspace of their
   * own, its id derived from theirs so two racing first sign-ins converge on one.
   */
  async homeOf(user: UserDocument): Promise<string> {
    const first = await this.store.memberships.firstOf(user._id);
    if (first) return first.workspace_id;
    const workspaceId = `ws_${user._id.replace(/^usr_/, '')}`;
    const now = this.clock.now();
    await this.store.workspaces.insert({
      _id: workspaceId,
      name: user.anonymous ? 'CLI workspace' : `${user.email}'s workspace`,
      owner_user_id: user._id,
      created_at_ms: now,
    });
    await this.store.memberships.add(workspaceId, user._id, 'owner', now);
    return workspaceId;
  }

  /** A sign-in proved the email: every pending invite addressed to it is accepted. */
  async acceptInvitesFor(user: UserDocument): Promise<void> {
    for (const invite of await this.store.invites.pendingFor(user.email)) await this.accept(invite, user);
  }

  /**
   * Joins the invite's workspace as a member (a member already stays as they are). The invite's
   * spend cap is applied first: a failure leaves the invite pending (the sign-in fails and can be
   * retried), so nobody becomes a member without the cap they were invited under.
   */
  async accept(invite: InviteDocument, user: UserDocument): Promise<void> {
    if (invite.spend_cap_usd !== null) {
      await this.caps.apply(invite.workspace_id, invite.invited_by_user_id, user._id, invite.spend_cap_usd);
    }
    const now = this.clock.now();
    await this.store.memberships.add(invite.workspace_id, user._id, 'member', now);
    await this.store.invites.markAccepted(invite._id, now);
  }
}
