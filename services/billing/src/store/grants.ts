import type { Collection } from '@rde/platform';
import { chargeKey } from '../domain/holds';
import { ownEntry, type AccountDocument } from './accounts';

/** A grant or correction applied to the account once, with the balance right after it. */
export interface AppliedGrant {
  entry_id: string;
  balance_after: number;
}

/** Grant-side writes on the account document: `grants.<key>` marks an entry applied. */
export class GrantsRepository {
  constructor(private readonly accounts: Collection<AccountDocument>) {}

  /** The entry as applied, if it was. */
  applied(account: AccountDocument, entryId: string): AppliedGrant | undefined {
    return ownEntry(account.grants ?? {}, chargeKey(entryId));
  }

  /**
   * Compare-and-set on the balance read, so the balance after it is exact; false on a lost race.
   * A purchase also adds its credits to the purchased counter in the same write.
   */
  async apply(account: AccountDocument, entryId: string, amount: number, purchase = false): Promise<boolean> {
    const key = `grants.${chargeKey(entryId)}`;
    const balanceAfter = account.balance + amount;
    const purchased: Record<string, number> = purchase ? { purchased: amount, purchased_total: amount } : {};
    const result = await this.accounts.updateOne(
      { _id: account._id, balance: account.balance, [key]: { $exists: false } },
      {
        $set: { balance: balanceAfter, [key]: { entry_id: entryId, balance_after: balanceAfter } },
        $inc: { available: amount, ...purchased },
      },
    );
    return result.matched === 1;
  }
}
