import type { CreditBook } from './credit-book';
import type { LedgerEntry } from '../domain/ledger';
import type { GrantsRepository } from '../store/grants';
import type { LedgerRepository } from '../store/ledger';

const MAX_ROUNDS = 50;

/**
 * Ledger lines the account applies whole (plan grants, rollover cuts, purchases, operator grants):
 * on the ledger once (unique id), applied to the account once through its grants record, then
 * their balance after recorded. Each step is one single-document write, so a crash anywhere
 * reruns into the same id and applies nothing twice.
 */
export class AccountEntries {
  constructor(
    private readonly book: CreditBook,
    private readonly ledger: LedgerRepository,
    private readonly grants: GrantsRepository,
  ) {}

  /** Ledger first (the first amount written wins), then the account once, then balance_after. */
  async write(workspaceId: string, entry: LedgerEntry, purchase = false): Promise<void> {
    await this.apply(workspaceId, await this.ledger.insertOnce(entry), purchase);
  }

  /**
   * Applies an entry already on the ledger to the account once (a purchase also to the purchased
   * counter) and records the balance after it, which it returns.
   */
  async apply(workspaceId: string, stored: LedgerEntry, purchase: boolean): Promise<number> {
    for (let round = 0; round < MAX_ROUNDS; round++) {
      const account = await this.book.account(workspaceId);
      const applied = this.grants.applied(account, stored._id);
      if (applied) {
        await this.ledger.recordBalancesAfter([{ charge_id: stored._id, balance_after: applied.balance_after }]);
        return applied.balance_after;
      }
      await this.grants.apply(account, stored._id, stored.amount, purchase);
    }
    throw new Error(`${stored._id}: its guarded write lost ${MAX_ROUNDS} races in a row`);
  }
}
