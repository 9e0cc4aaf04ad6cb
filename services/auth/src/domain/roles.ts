export const ROLES = ['owner', 'member'] as const;
export type Role = (typeof ROLES)[number];

/** The spec's key rule: a member may revoke only keys they minted; the owner may revoke any. */
export function mayRevoke(caller: { userId: string; role: string }, key: { user_id: string }): boolean {
  return caller.role === 'owner' || key.user_id === caller.userId;
}
