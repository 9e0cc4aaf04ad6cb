import { errors } from '@rde/platform';
import { GRANT_CREDITS_MAX, type billingGrants } from '@rde/proto';
import { millicredits } from './credits';
import { accountEntry } from './grants';
import { isHoldId } from './holds';
import type { LedgerEntry } from './ledger';

/** Operator grants (decision 0051): credits given by `rde admin grant-credits` or the dev workspace's start. */

const TEXT_MAX = 200;

/** The ledger id of an operator's grant: its own prefix, so it never meets a plan grant's or a purchase's. */
export function operatorGrantId(grantId: string): string {
  return `grant:operator:${grantId}`;
}

/** A grant request as checked: whole credits as millicredits, the texts trimmed. */
export interface OperatorGrant {
  workspaceId: string;
  grantId: string;
  amount: number;
  reason: string;
  grantedBy: string;
}

/** The request, checked field by field (400 naming the first bad one). */
export function checkedGrant(request: billingGrants.GrantCreditsRequest): OperatorGrant {
  const reason = request.reason.trim();
  const grantedBy = request.grantedBy.trim();
  if (!request.workspaceId || request.workspaceId.length > 128) {
    throw errors.badRequest({ detail: 'workspace_id must be 1 to 128 characters' });
  }
  if (!isHoldId(request.grantId))
    throw errors.badRequest({ detail: 'grant_id must be 1 to 128 letters, digits, _ or -' });
  if (!Number.isSafeInteger(request.credits) || request.credits < 1 || request.credits > GRANT_CREDITS_MAX) {
    throw errors.badRequest({ detail: `credits must be a whole number from 1 to ${GRANT_CREDITS_MAX}` });
  }
  if (!reason || reason.length > TEXT_MAX)
    throw errors.badRequest({ detail: `reason must be 1 to ${TEXT_MAX} characters` });
  if (!grantedBy || grantedBy.length > TEXT_MAX) {
    throw errors.badRequest({ detail: `granted_by must be 1 to ${TEXT_MAX} characters` });
  }
  return {
    workspaceId: request.workspaceId,
    grantId: request.grantId,
    amount: millicredits(request.credits),
    reason,
    grantedBy,
  };
}

/** The grant's ledger entry: kind `grant`, the reason as description, who granted it kept beside. */
export function operatorGrantEntry(grant: OperatorGrant, now: number): LedgerEntry {
  const entry = accountEntry(
    operatorGrantId(grant.grantId),
    grant.workspaceId,
    'grant',
    grant.amount,
    grant.reason,
    now,
  );
  return { ...entry, granted_by: grant.grantedBy };
}

/** A retry writes the same grant again; the same id for another grant is refused (409). */
export function assertSameGrant(stored: LedgerEntry, asked: LedgerEntry): void {
  const same =
    stored.workspace_id === asked.workspace_id &&
    stored.kind === asked.kind &&
    stored.amount === asked.amount &&
    stored.description === asked.description;
  if (!same) {
    const grantId = asked._id.slice(operatorGrantId('').length);
    throw errors.conflict({
      detail: `grant_id ${grantId} was already used for another grant (workspace, credits or reason differ)`,
    });
  }
}
