import type { Clock, Handlers } from '@rde/platform';
import type { billingGrants } from '@rde/proto';
import type { PlanGrants } from '../app/grants';
import { operatorGrantEntry } from '../domain/operator-grants';
import { toLedgerEntry } from './handlers';

/** Proto ⇄ use case only. No caller is required: the gateway never reaches this service. */
export function creditGrantHandlers(
  grants: PlanGrants,
  clock: Clock,
): Handlers<typeof billingGrants.CreditGrantServiceService> {
  return {
    async grantCredits(request) {
      const entry = await grants.grantOperatorCredits(operatorGrantEntry(request, clock.now()));
      return { entry: toLedgerEntry(entry), grantedBy: entry.granted_by ?? '' };
    },
  };
}
