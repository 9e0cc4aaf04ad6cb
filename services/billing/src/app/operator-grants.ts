import type { Clock, Logger } from '@rde/platform';
import type { billingGrants } from '@rde/proto';
import type { CreditBook } from './credit-book';
import type { LedgerEntry } from '../domain/ledger';
import { assertSameGrant, checkedGrant, operatorGrantEntry } from '../domain/operator-grants';
import type { LedgerRepository } from '../store/ledger';
import type { AccountEntries } from './account-entries';

/**
 * An operator's grant (decision 0051), once per grant id, into the purchased bucket: never cut at
 * a rollover. The account (with its free grant) is opened first; the entry as stored is compared
 * with the one asked before the account is touched.
 */
export class OperatorGrants {
  constructor(
    private readonly book: CreditBook,
    private readonly ledger: LedgerRepository,
    private readonly entries: AccountEntries,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  /** Returns the entry as first written, with the balance after it. */
  async grant(request: billingGrants.GrantCreditsRequest): Promise<LedgerEntry> {
    const grant = checkedGrant(request);
    await this.book.account(grant.workspaceId);
    // Stamped once the account is open, so the free grant comes first in the ledger's order.
    const entry = operatorGrantEntry(grant, this.clock.now());
    const stored = await this.ledger.insertOnce(entry);
    assertSameGrant(stored, entry);
    const balanceAfter = await this.entries.apply(entry.workspace_id, stored, true);
    this.logger.info(
      { workspaceId: entry.workspace_id, entryId: entry._id, amount: entry.amount, grantedBy: stored.granted_by },
      'credits granted by an operator',
    );
    return { ...stored, balance_after: balanceAfter };
  }
}
