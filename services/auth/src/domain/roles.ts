export const ROLES = ['owner', 'member'] as const;
export type Role = (typeof ROLES)[number];

/** A member of a workspace as the member routes answer it. */
export interface MemberRow {
  readonly user_id: string;
  readonly email: string;
  readonly role: Role;
}

/** The owner may act on anyone's behalf in the workspace; a member only on their own. */
function ownerOrSelf(caller: { userId: string; role: string }, userId: string): boolean {
  return caller.role === 'owner' || caller.userId === userId;
}

/** The spec's key rule: a member may revoke only keys they minted; the owner may revoke any. */
export function mayRevoke(caller: { userId: string; role: string }, key: { user_id: string }): boolean {
  return ownerOrSelf(caller, key.user_id);
}

/** The owner removes anyone; a member only themselves, which is leaving (decision 0087). */
export function mayRemove(caller: { userId: string; role: string }, userId: string): boolean {
  return ownerOrSelf(caller, userId);
}

/** Only an owner changes roles (the spec's owner-only rule, Authentication rule 8). */
export function mayChangeRoles(caller: { role: string }): boolean {
  return caller.role === 'owner';
}
