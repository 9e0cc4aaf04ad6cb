import type { Clock, DocumentStore } from '@rde/platform';
import { ApiKeys } from './api-keys';
import { Memberships } from './memberships';
import { Users } from './users';
import { Workspaces } from './workspaces';

export type { ApiKeyDocument } from './api-keys';
export type { MembershipDocument } from './memberships';
export type { UserDocument } from './users';
export type { WorkspaceDocument } from './workspaces';

/** The auth service's repositories over its own database. */
export interface AuthStore {
  readonly users: Users;
  readonly workspaces: Workspaces;
  readonly memberships: Memberships;
  readonly keys: ApiKeys;
}

/** Opens every repository, creating its indexes (idempotent, so every replica does it at start). */
export async function openAuthStore(store: DocumentStore, clock: Clock): Promise<AuthStore> {
  return {
    users: await Users.open(store, clock),
    workspaces: new Workspaces(store),
    memberships: await Memberships.open(store),
    keys: await ApiKeys.open(store),
  };
}
