import type { Clock } from '@rde/platform';
import { newId } from '../domain/ids';
import { hashSecret, mintSecret } from '../domain/secrets';
import { SESSION_TTL_MS } from '../domain/sign-in';
import type { AuthStore } from '../store';

export interface MintedSession {
  /** The cookie value: shown to the browser once, stored only as its hash. */
  readonly token: string;
  readonly expiresAtMs: number;
}

/** Browser sessions: minted by every sign-in leg, revoked by logout. */
export class Sessions {
  constructor(
    private readonly store: AuthStore,
    private readonly clock: Clock,
  ) {}

  async mint(userId: string, workspaceId: string): Promise<MintedSession> {
    const token = mintSecret('rde_ses_');
    const now = this.clock.now();
    const expiresAtMs = now + SESSION_TTL_MS;
    await this.store.sessions.insert({
      _id: newId('sess'),
      token_hash: hashSecret(token),
      user_id: userId,
      workspace_id: workspaceId,
      created_at_ms: now,
      expires_at_ms: expiresAtMs,
      revoked_at_ms: null,
    });
    return { token, expiresAtMs };
  }

  /**
   * Revokes whatever bearer has this token's hash, a browser session or an API key, whatever
   * workspace the caller switched to. Revoking twice answers the same.
   */
  async revokeBearer(token: string): Promise<void> {
    const hash = hashSecret(token);
    const now = this.clock.now();
    if (await this.store.sessions.revoke(hash, now)) return;
    const key = await this.store.keys.byHash(hash);
    if (key) await this.store.keys.revoke(key._id, now);
  }
}
