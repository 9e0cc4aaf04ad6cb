import type { Handlers } from '@rde/platform';
import type { billingGrants } from '@rde/proto';
import type { OperatorGrants } from '../app/operator-grants';
import { toLedgerEntry } from './handlers';

/** Proto ⇄ use case only. No caller is required: the gateway never reaches this service. */
export function creditGrantHandlers(grants: OperatorGrants): Handlers<typeof billingGrants.CreditGrantServiceService> {
  return {
    async grantCredits(request) {
      const entry = await grants.grant(request);
      return { entry: toLedgerEntry(entry), grantedBy: entry.granted_by ?? '' };
    },
  };
}
