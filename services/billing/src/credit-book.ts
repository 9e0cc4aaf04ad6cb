import { errors, type Clock, type Logger } from '@rde/platform';
import { capRefusal, capTags } from './domain/caps';
import { chargeKey, insufficientCreditsBody } from './domain/holds';
import { FREE_GRANT, chargeEntry, freeGrantEntry, type Charge, type Settlement } from './domain/ledger';
import { ownEntry, type AccountDocument, type AccountStore, type NewHold } from './store/accounts';
import { capGuard } from './store/caps';
import type { LedgerStore } from './store/ledger';

/** A hold to make, and whom it is for: the caps of that member and session apply. */
export type HoldRequest = Omit<NewHold, 'createdAt' | 'expiresAt'> & {
  ttlMs: number;
  userId: string;
  sessionId: string;
};

/** Compare-and-set rounds before giving up; the settlement is then retried by the bus with backoff. */
const MAX_ROUNDS = 50;

/** Re-reads and retries a guarded write until a round settles it (returns a value). */
async function untilSettled<T>(what: string, round: () => Promise<T | undefined>): Promise<T> {
  for (let attempt = 1; attempt <= MAX_ROUNDS; attempt++) {
    const result = await round();
    if (result !== undefined) return result;
  }
  throw new Error(`${what}: its guarded write lost ${MAX_ROUNDS} races in a row`);
}

/**
 * Accounts and the ledger kept in step without transactions (decision 0004): every step is one
 * guarded single-document write, so any of them can be replayed after a crash and is a no-op the
 * second time.
 */
export class CreditBook {
  constructor(
    private readonly accounts: AccountStore,
    private readonly ledger: LedgerStore,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  /**
   * The workspace's account, opened on first access of any kind with the free grant. The grant's
   * ledger entry is written first, so an account never exists without it.
   */
  async account(workspaceId: string): Promise<AccountDocument> {
    const existing = await this.accounts.find(workspaceId);
    if (existing) return existing;
    const now = this.clock.now();
    await this.ledger.insertOnce(freeGrantEntry(workspaceId, now));
    return this.accounts.open(workspaceId, FREE_GRANT, now);
  }

  /**
   * Holds the worst case of paid work when the balance and every cap that applies allow it
   * (decision 0020); a retry with the same hold id answers the standing hold. Checked on a read
   * and written with a guard that fails if anything the check relied on changed, then re-read.
   */
  reserve(workspaceId: string, request: HoldRequest): Promise<AccountDocument> {
    return untilSettled(`reserve of hold ${request.id}`, async () => {
      const account = await this.account(workspaceId);
      if (ownEntry(account.holds, request.id)) return account;
      const now = this.clock.now();
      const tags = capTags(account, request.userId, request.sessionId, now);
      const refusal = capRefusal(account, tags, request.amount, now);
      if (refusal) throw errors.paymentRequired(refusal);
      if (account.available < request.amount) {
        throw errors.paymentRequired(insufficientCreditsBody(request.amount, account.available));
      }
      const hold = { ...request, createdAt: now, expiresAt: now + request.ttlMs };
      return (await this.accounts.reserve(workspaceId, hold, tags, capGuard(account, tags))) ?? undefined;
    });
  }

  /** Per charge: ledger entry → account → balance on the entry; then the hold's release when final. */
  async applySettlement(settlement: Settlement): Promise<void> {
    for (const charge of settlement.charges) {
      const entry = await this.ledger.insertOnce(chargeEntry(settlement, charge, this.clock.now()));
      if (entry.workspace_id !== settlement.workspaceId) {
        this.logger.error(
          { chargeId: charge.id, settlement: settlement.id, owner: entry.workspace_id },
          'charge id already belongs to another workspace; not applied',
        );
        continue;
      }
      const balanceAfter = await this.draw(settlement, charge);
      await this.ledger.recordBalanceAfter(charge.id, balanceAfter);
    }
    if (settlement.final && settlement.holdId) await this.releaseHold(settlement.workspaceId, settlement.holdId);
  }

  /**
   * Applies a charge once and returns the balance right after it. The account is read before the
   * ledger: a hold's applied charges reach the ledger before the hold is removed, so a charge that
   * is in neither was never applied.
   */
  private draw(settlement: Settlement, charge: Charge): Promise<number> {
    const key = chargeKey(charge.id);
    return untilSettled(`charge ${charge.id}`, async () => {
      const account = await this.account(settlement.workspaceId);
      const hold = ownEntry(account.holds, settlement.holdId);
      const recorded = (hold && ownEntry(hold.applied, key)) ?? ownEntry(account.late_charges, key);
      if (recorded) return recorded.balance_after;
      const written = await this.ledger.balanceAfter(charge.id);
      if (written !== undefined) return written;
      const drawn = hold
        ? await this.accounts.drawOnHold(account, settlement.holdId, charge.id, charge.amount)
        : await this.accounts.drawLate(account, charge.id, charge.amount);
      if (!drawn) return undefined;
      if (!hold) {
        this.logger.warn(
          { chargeId: charge.id, holdId: settlement.holdId, workspaceId: settlement.workspaceId },
          'charge arrived after its hold was released; applied as a late charge',
        );
      }
      return account.balance - charge.amount;
    });
  }

  /** Gives back what the hold did not draw; its applied charges reach the ledger first. */
  async releaseHold(workspaceId: string, holdId: string): Promise<void> {
    await untilSettled(`release of hold ${holdId}`, async () => {
      const account = await this.accounts.find(workspaceId);
      const hold = account && ownEntry(account.holds, holdId);
      if (!hold) return true;
      for (const applied of Object.values(hold.applied)) {
        await this.ledger.recordBalanceAfter(applied.charge_id, applied.balance_after);
      }
      return (await this.accounts.release(workspaceId, holdId, hold)) || undefined;
    });
  }

  /** Releases every hold past its expiry; returns how many. */
  async releaseExpiredHolds(): Promise<number> {
    const now = this.clock.now();
    let released = 0;
    for await (const account of this.accounts.withOpenHolds()) {
      for (const [holdId, hold] of Object.entries(account.holds)) {
        if (hold.expires_at > now) continue;
        await this.releaseHold(account._id, holdId);
        this.logger.info(
          { workspaceId: account._id, holdId, drawn: hold.drawn, amount: hold.amount },
          'expired hold released',
        );
        released++;
      }
    }
    return released;
  }
}
