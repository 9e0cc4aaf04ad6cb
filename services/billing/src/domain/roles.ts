import { errors, type Caller } from '@rde/platform';

/** The spec's exact 403 body for a non-owner on a billing-changing route. */
export const OWNER_ONLY_DETAIL = 'Only the workspace owner can manage billing.';

export function isOwner(caller: Caller): boolean {
  return caller.role === 'owner';
}

/** Billing changes and caps are owner-only, enforced here in the owning service. */
export function requireOwner(caller: Caller): void {
  if (!isOwner(caller)) throw errors.forbidden(OWNER_ONLY_DETAIL);
}
