import { errors, httpError, type Caller, type Clock, type KeyValue } from '@rde/platform';
import { hashSecret, mintSecret } from '../domain/secrets';
import { CLAIM_TTL_MS } from '../domain/sign-in';
import type { AuthStore, ClaimDocument } from '../store';
import type { KeyService } from './api-keys';
import type { Members } from './members';

/** Browser sessions' ids start so; an API key's caller cannot approve a claim. */
const SESSION_ID_PREFIX = 'sess_';

export type ClaimView = 'pending' | 'approved' | 'delivered' | 'expired';

/** The CLI claim flow: start, browser approval, one poll that hands over the bearer. */
export class Claims {
  constructor(
    private readonly store: AuthStore,
    private readonly members: Members,
    private readonly keys: KeyService,
    private readonly counters: KeyValue,
    private readonly clock: Clock,
    /** Claims one address may start per minute; 0 = unlimited. */
    private readonly perIpPerMinute: number,
    private readonly ttlMs: number = CLAIM_TTL_MS,
  ) {}

  async start(clientIp: string): Promise<{ claimId: string; expiresAtMs: number }> {
    if (this.perIpPerMinute > 0) {
      const started = await this.counters.increment(`claim-starts:${clientIp}`, 60_000);
      if (started > this.perIpPerMinute)
        throw httpError(429, { detail: 'Too many CLI sign-ins from this address; try again in a minute' });
    }
    const claimId = mintSecret('rde_clm_');
    const now = this.clock.now();
    const expiresAtMs = now + this.ttlMs;
    await this.store.claims.insert({
      _id: hashSecret(claimId),
      status: 'pending',
      user_id: null,
      workspace_id: null,
      created_at_ms: now,
      expires_at_ms: expiresAtMs,
      approved_at_ms: null,
    });
    return { claimId, expiresAtMs };
  }

  async view(claimId: string): Promise<ClaimView> {
    return this.viewOf(await this.found(claimId));
  }

  /** Legacy anonymous approval: the bearer acts as a new user bound to no email, in a new workspace. */
  async approveAnonymously(claimId: string): Promise<string> {
    await this.waiting(claimId);
    const user = await this.store.users.createAnonymous();
    const workspaceId = await this.members.homeOf(user);
    await this.approve(claimId, user._id, workspaceId);
    return workspaceId;
  }

  /**
   * Approval by a signed-in browser: its session's user, in its workspace, or in the invited one
   * when an invite code for that user's email is given (the invite is accepted then).
   */
  async approveSignedIn(caller: Caller, claimId: string, inviteCode?: string): Promise<string> {
    const user = caller.keyId.startsWith(SESSION_ID_PREFIX) ? await this.store.users.byId(caller.userId) : null;
    if (!user || user.anonymous) throw errors.forbidden('Approving a CLI sign-in needs a signed-in browser session');
    await this.waiting(claimId);
    let workspaceId = caller.workspaceId;
    if (inviteCode) {
      const invite = await this.store.invites.byCodeHash(hashSecret(inviteCode));
      if (!invite) throw errors.notFound('Invite not found');
      if (invite.email !== user.email) throw errors.forbidden('This invite is for another email address');
      await this.members.accept(invite, user);
      workspaceId = invite.workspace_id;
    }
    await this.approve(claimId, user._id, workspaceId);
    return workspaceId;
  }

  /** `approved` with the bearer on exactly one poll; `delivered` after that. */
  async poll(claimId: string): Promise<{ status: ClaimView; token?: string; workspaceId?: string }> {
    const claim = await this.found(claimId);
    const status = this.viewOf(claim);
    if (status !== 'approved') return { status };
    const delivered = await this.store.claims.deliver(claim._id, this.clock.now());
    if (!delivered) return { status: this.viewOf((await this.store.claims.byHash(claim._id))!) };
    const holder = { userId: delivered.user_id!, workspaceId: delivered.workspace_id! };
    const minted = await this.keys.mintNew(holder, 'cli');
    return { status, token: minted.plaintext, workspaceId: holder.workspaceId };
  }

  private async approve(claimId: string, userId: string, workspaceId: string): Promise<void> {
    const approved = await this.store.claims.approve(hashSecret(claimId), { userId, workspaceId }, this.clock.now());
    if (!approved) throw notWaiting();
  }

  private async waiting(claimId: string): Promise<void> {
    if (this.viewOf(await this.found(claimId)) !== 'pending') throw notWaiting();
  }

  private async found(claimId: string): Promise<ClaimDocument> {
    const claim = claimId ? await this.store.claims.byHash(hashSecret(claimId)) : null;
    if (!claim) throw errors.notFound('CLI sign-in not found');
    return claim;
  }

  private viewOf(claim: ClaimDocument): ClaimView {
    if (claim.status === 'delivered') return 'delivered';
    return claim.expires_at_ms <= this.clock.now() ? 'expired' : claim.status;
  }
}

function notWaiting() {
  return errors.conflict({ detail: 'This CLI sign-in is no longer waiting for approval' });
}
