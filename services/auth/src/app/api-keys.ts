import { errors, type Caller, type Clock } from '@rde/platform';
import { hashKey, mintKeyMaterial, type KeyMaterial } from '../domain/api-key';
import { newId } from '../domain/ids';
import { mayRevoke } from '../domain/roles';
import type { ApiKeyDocument, AuthStore } from '../store';

/** A key's last use is recorded at most this often, so resolving a bearer is not a write per request. */
export const LAST_USED_INTERVAL_MS = 60_000;

export interface MintedKey {
  readonly key: ApiKeyDocument;
  /** Shown to the user once; never stored. */
  readonly plaintext: string;
}

export interface KeyHolder {
  readonly workspaceId: string;
  readonly userId: string;
}

/** API keys: minting, bearer resolution, listing and revocation. */
export class KeyService {
  constructor(
    private readonly store: AuthStore,
    private readonly clock: Clock,
  ) {}

  /**
   * The caller a bearer (an API key or a browser session) stands for, in its own workspace or in the one `workspaceSwitch` names.
   * A switch to a workspace the key's user is not in answers 404 whether or not it exists.
   */
  async resolveBearer(token: string, workspaceSwitch: string): Promise<Caller> {
    // Looked up by the hash through a unique index: no secret is compared in this process.
    const holder = token ? await this.holderOf(hashKey(token)) : null;
    if (!holder) throw errors.notAuthenticated('refused');
    const workspaceId = workspaceSwitch || holder.workspaceId;
    const [membership, user] = await Promise.all([
      this.store.memberships.of(workspaceId, holder.userId),
      this.store.users.byId(holder.userId),
    ]);
    if (!membership)
      throw workspaceSwitch ? errors.notFound('Workspace not found') : errors.notAuthenticated('refused');
    return {
      workspaceId,
      userId: holder.userId,
      role: membership.role,
      keyId: holder.credentialId,
      sessionId: '',
      requestId: '',
      // Routes that need a signed-in user (custom skills) refuse a legacy anonymous approval's bearer.
      anonymous: user?.anonymous === true,
    };
  }

  /** Who a live API key or browser session with this hash acts as; `credentialId` is `key_…` or `sess_…`. */
  private async holderOf(hash: string): Promise<{ credentialId: string; userId: string; workspaceId: string } | null> {
    const now = this.clock.now();
    // Both looked up every time: a revoked key costs what an unknown one does, so timing tells neither.
    const [key, session] = await Promise.all([this.store.keys.byHash(hash), this.store.sessions.byHash(hash)]);
    if (key) {
      if (key.revoked_at_ms !== null) return null;
      if (now - key.last_used_at_ms >= LAST_USED_INTERVAL_MS) {
        await this.store.keys.touch(key._id, now, LAST_USED_INTERVAL_MS);
      }
      return { credentialId: key._id, userId: key.user_id, workspaceId: key.workspace_id };
    }
    if (!session || session.revoked_at_ms !== null || session.expires_at_ms <= now) return null;
    return { credentialId: session._id, userId: session.user_id, workspaceId: session.workspace_id };
  }

  /** A new key for the caller in the caller's workspace. */
  create(caller: Caller, name: string): Promise<MintedKey> {
    return this.mintNew({ workspaceId: caller.workspaceId, userId: caller.userId }, name);
  }

  /** Mints a key; 409 when the given material is someone's key already (a reused dev or admin key). */
  async mintNew(holder: KeyHolder, name: string, material?: KeyMaterial): Promise<MintedKey> {
    const minted = await this.mint(holder, name, material);
    if (!minted) throw errors.conflict({ detail: 'This API key is already in use' });
    return minted;
  }

  /** Stores a key; null when its id or the key itself is stored already (idempotent set-up). */
  async mint(
    holder: KeyHolder,
    name: string,
    material: KeyMaterial = mintKeyMaterial(),
    id: string = newId('key'),
  ): Promise<MintedKey | null> {
    const key: ApiKeyDocument = {
      _id: id,
      workspace_id: holder.workspaceId,
      user_id: holder.userId,
      name,
      display_prefix: material.displayPrefix,
      key_hash: material.hash,
      created_at_ms: this.clock.now(),
      last_used_at_ms: 0,
      revoked_at_ms: null,
    };
    return (await this.store.keys.insertUnlessTaken(key)) ? { key, plaintext: material.plaintext } : null;
  }

  /** Every live key of the caller's workspace, members' and owner's alike (decision 0005). */
  list(caller: Caller): Promise<ApiKeyDocument[]> {
    return this.store.keys.activeIn(caller.workspaceId);
  }

  /** Revokes a key of the caller's workspace; revoking a revoked key again answers the same. */
  async revoke(caller: Caller, keyId: string): Promise<ApiKeyDocument> {
    const key = await this.store.keys.inWorkspace(keyId, caller.workspaceId);
    if (!key) throw errors.notFound('API key not found');
    if (!mayRevoke(caller, key)) throw errors.forbidden('Members can revoke only the API keys they minted');
    if (key.revoked_at_ms === null) await this.store.keys.revoke(key._id, this.clock.now());
    return key;
  }
}
