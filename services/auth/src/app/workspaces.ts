import { errors, type Caller, type Clock } from '@rde/platform';
import { keyMaterialOf, mintKeyMaterial } from '../domain/api-key';
import { newId } from '../domain/ids';
import type { MemberRow, Role } from '../domain/roles';
import type { AuthStore, UserDocument, WorkspaceDocument } from '../store';
import type { KeyService, MintedKey } from './api-keys';

/** The all-in-one dev workspace: fixed ids, so every restart and every replica finds the same one. */
export const DEV_WORKSPACE_ID = 'ws_dev';
export const DEV_OWNER_EMAIL = 'dev@rde.local';
const MINTED_DEV_KEY_ID = 'key_dev';

export interface CreatedWorkspace {
  readonly workspace: WorkspaceDocument;
  readonly owner: UserDocument;
  readonly key: MintedKey;
}

export interface AddedMember {
  readonly user: UserDocument;
  readonly role: Role;
  readonly key: MintedKey;
}

export interface WorkspaceView {
  readonly workspace: WorkspaceDocument;
  readonly user: UserDocument;
  readonly role: string;
  readonly seatsUsed: number;
}

/** Workspaces, their members and roles. */
export class AccountService {
  constructor(
    private readonly store: AuthStore,
    private readonly keys: KeyService,
    private readonly clock: Clock,
  ) {}

  /**
   * A new workspace owned by the user with this email, with the owner's first key (exactly
   * `keyPlaintext` when given). The key is stored first: a key already in use stops the call
   * before any workspace exists.
   */
  async createWorkspace(input: {
    ownerEmail: string;
    name?: string;
    keyPlaintext?: string;
  }): Promise<CreatedWorkspace> {
    const owner = await this.store.users.ensure(input.ownerEmail);
    const workspaceId = newId('ws');
    const material = input.keyPlaintext ? keyMaterialOf(input.keyPlaintext) : mintKeyMaterial();
    const key = await this.keys.mintNew({ workspaceId, userId: owner._id }, 'default', material);
    const now = this.clock.now();
    const workspace: WorkspaceDocument = {
      _id: workspaceId,
      name: input.name ?? `${input.ownerEmail}'s workspace`,
      owner_user_id: owner._id,
      created_at_ms: now,
    };
    await this.store.workspaces.insert(workspace);
    await this.store.memberships.add(workspaceId, owner._id, 'owner', now);
    return { workspace, owner, key };
  }

  /** A workspace by its id; 404 when there is none. */
  async workspace(workspaceId: string): Promise<WorkspaceDocument> {
    const workspace = workspaceId ? await this.store.workspaces.byId(workspaceId) : null;
    if (!workspace) throw errors.notFound('Workspace not found');
    return workspace;
  }

  /** Adds the user with this email (created when new) to a workspace, with their first key. */
  async addMember(input: { workspaceId: string; email: string; role: Role }): Promise<AddedMember> {
    const workspace = await this.workspace(input.workspaceId);
    const user = await this.store.users.ensure(input.email);
    const added = await this.store.memberships.add(workspace._id, user._id, input.role, this.clock.now());
    if (!added) throw errors.conflict({ detail: `${input.email} is already a member of this workspace` });
    const key = await this.keys.mintNew({ workspaceId: workspace._id, userId: user._id }, 'default');
    return { user, role: input.role, key };
  }

  /** A user's current role in a workspace; 404 when they are not a member. */
  async membershipOf(workspaceId: string, userId: string): Promise<Role> {
    const membership = workspaceId && userId ? await this.store.memberships.of(workspaceId, userId) : null;
    if (!membership) throw errors.notFound('Not a member of this workspace');
    return membership.role;
  }

  /** The caller's workspace as /api/v2/me shows it. */
  async view(caller: Caller): Promise<WorkspaceView> {
    const [workspace, user, seatsUsed] = await Promise.all([
      this.store.workspaces.byId(caller.workspaceId),
      this.store.users.byId(caller.userId),
      this.store.memberships.count(caller.workspaceId),
    ]);
    if (!workspace || !user) throw errors.notFound('Workspace not found');
    return { workspace, user, role: caller.role, seatsUsed };
  }

  /** The workspaces the caller's user belongs to, with their role in each. */
  async workspacesOf(
    caller: Caller,
  ): Promise<{ user: UserDocument; workspaces: { workspace: WorkspaceDocument; role: Role }[] }> {
    const [user, memberships] = await Promise.all([
      this.store.users.byId(caller.userId),
      this.store.memberships.ofUser(caller.userId),
    ]);
    if (!user) throw errors.unauthenticated();
    const workspaces = await Promise.all(
      memberships.map((membership) => this.store.workspaces.byId(membership.workspace_id)),
    );
    return {
      user,
      workspaces: memberships.flatMap((membership, index) => {
        const workspace = workspaces[index];
        return workspace ? [{ workspace, role: membership.role }] : [];
      }),
    };
  }

  /** The caller's workspace members with their roles and emails. */
  async members(caller: Caller): Promise<MemberRow[]> {
    const memberships = await this.store.memberships.list(caller.workspaceId);
    const users = await Promise.all(memberships.map((membership) => this.store.users.byId(membership.user_id)));
    return memberships.map((membership, index) => ({
      user_id: membership.user_id,
      email: users[index]?.email ?? '',
      role: membership.role,
    }));
  }

  /**
   * Ensures the dev workspace, owned by dev@rde.local, whose owner key is `configuredKey` when
   * given or else minted once. Every step is an insert a unique index makes idempotent, so
   * restarts and racing replicas converge. Returns the plaintext when this call minted it.
   */
  async ensureDevWorkspace(configuredKey?: string): Promise<string | undefined> {
    const owner = await this.store.users.ensure(DEV_OWNER_EMAIL);
    const now = this.clock.now();
    await this.store.workspaces.insert({
      _id: DEV_WORKSPACE_ID,
      name: 'Dev workspace',
      owner_user_id: owner._id,
      created_at_ms: now,
    });
    await this.store.memberships.add(DEV_WORKSPACE_ID, owner._id, 'owner', now);
    const holder = { workspaceId: DEV_WORKSPACE_ID, userId: owner._id };
    if (configuredKey) {
      const material = keyMaterialOf(configuredKey);
      await this.keys.mint(holder, 'dev', material, `key_dev_${material.hash.slice(0, 16)}`);
      return undefined;
    }
    return (await this.keys.mint(holder, 'dev', mintKeyMaterial(), MINTED_DEV_KEY_ID))?.plaintext;
  }
}
