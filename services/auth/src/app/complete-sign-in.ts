import type { Clock } from '@rde/platform';
import type { AuthStore, UserDocument } from '../store';
import type { Members } from './members';
import type { Sessions } from './sessions';

/** What a sign-in leg carries besides the proven user: the claim, `next` and invite it came with. */
export interface SignInIntent {
  readonly claimHash?: string | null;
  readonly next?: string | null;
  readonly inviteCodeHash?: string | null;
}

export interface SignedIn {
  readonly kind: 'cli' | 'session';
  readonly user: UserDocument;
  readonly workspaceId: string;
  readonly sessionToken: string;
  readonly sessionExpiresAtMs: number;
  readonly nextUrl?: string;
}

/**
 * The end every sign-in leg shares once the email is proven: pending invites to that email are
 * accepted, a waiting CLI claim is approved for the user's home workspace, and a browser session
 * is minted (in the invited workspace when the sign-in came through an invite code).
 */
export class CompleteSignIn {
  constructor(
    private readonly store: AuthStore,
    private readonly members: Members,
    private readonly sessions: Sessions,
    private readonly clock: Clock,
  ) {}

  async run(user: UserDocument, intent: SignInIntent): Promise<SignedIn> {
    await this.store.users.markVerified(user._id);
    const home = await this.members.homeOf(user);
    await this.members.acceptInvitesFor(user);
    const workspaceId = (await this.invitedWorkspace(user, intent.inviteCodeHash)) ?? home;
    const approved =
      intent.claimHash &&
      (await this.store.claims.approve(intent.claimHash, { userId: user._id, workspaceId: home }, this.clock.now()));
    const session = await this.sessions.mint(user._id, workspaceId);
    return {
      kind: approved ? 'cli' : 'session',
      user,
      workspaceId,
      sessionToken: session.token,
      sessionExpiresAtMs: session.expiresAtMs,
      nextUrl: intent.next ?? undefined,
    };
  }

  private async invitedWorkspace(user: UserDocument, inviteCodeHash?: string | null): Promise<string | undefined> {
    if (!inviteCodeHash) return undefined;
    const invite = await this.store.invites.byCodeHash(inviteCodeHash);
    return invite?.email === user.email ? invite.workspace_id : undefined;
  }
}
