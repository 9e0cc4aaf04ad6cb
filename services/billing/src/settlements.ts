import type { Clock, Logger } from '@rde/platform';
import { untilSettled, type CreditBook } from './credit-book';
import { chargeKey } from './domain/holds';
import { chargeEntry, type Charge, type Settlement } from './domain/ledger';
import { ownEntry, type AccountDocument, type AccountStore, type AppliedCharge } from './store/accounts';
import type { LedgerStore } from './store/ledger';

/** A charge of the batch, with the settlement that carried it. */
interface PendingCharge {
  settlement: Settlement;
  charge: Charge;
}

/**
 * Applies a batch of settlements (what one Kafka fetch delivered) in a few bulk writes, with the
 * guarantees of decision 0004 unchanged: ledger entries first, in one unordered bulk insert (a
 * duplicate charge id is a replay); then, per workspace, one guarded account update drawing every
 * charge not drawn yet; then the balances after on the ledger; then one update releasing the
 * holds whose settlement was final. A crash anywhere replays the batch, and each step finds its
 * work done.
 */
export class Settlements {
  constructor(
    private readonly accounts: AccountStore,
    private readonly ledger: LedgerStore,
    private readonly book: CreditBook,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  async apply(settlements: Settlement[]): Promise<void> {
    const pending = await this.writeLedgerEntries(settlements);
    const workspaces = new Set(settlements.map((settlement) => settlement.workspaceId));
    await Promise.all(
      [...workspaces].map((workspaceId) =>
        this.applyToWorkspace(
          workspaceId,
          pending.filter(({ settlement }) => settlement.workspaceId === workspaceId),
          settlements.filter((s) => s.workspaceId === workspaceId && s.final && s.holdId).map((s) => s.holdId),
        ),
      ),
    );
  }

  /**
   * Inserts the batch's ledger entries and returns the charges to apply: each charge id once, and
   * none whose id another workspace's entry already holds.
   */
  private async writeLedgerEntries(settlements: Settlement[]): Promise<PendingCharge[]> {
    const byId = new Map<string, PendingCharge>();
    for (const settlement of settlements) {
      for (const charge of settlement.charges) {
        const first = byId.get(charge.id);
        if (!first) byId.set(charge.id, { settlement, charge });
        else if (first.settlement.workspaceId !== settlement.workspaceId)
          this.refuse(charge.id, settlement, first.settlement.workspaceId);
      }
    }
    const now = this.clock.now();
    const stored = await this.ledger.insertNew(
      [...byId.values()].map(({ settlement, charge }) => chargeEntry(settlement, charge, now)),
    );
    for (const entry of stored) {
      const { settlement } = byId.get(entry._id)!;
      if (entry.workspace_id === settlement.workspaceId) continue;
      this.refuse(entry._id, settlement, entry.workspace_id);
      byId.delete(entry._id);
    }
    return [...byId.values()];
  }

  private refuse(chargeId: string, settlement: Settlement, owner: string): void {
    this.logger.error(
      { chargeId, settlement: settlement.id, owner },
      'charge id already belongs to another workspace; not applied',
    );
  }

  private async applyToWorkspace(workspaceId: string, pending: PendingCharge[], finalHolds: string[]): Promise<void> {
    const applied =
      pending.length === 0
        ? []
        : await untilSettled(`settlement of ${workspaceId}`, () => this.drawRound(workspaceId, pending));
    if (finalHolds.length > 0) await this.book.releaseHolds(workspaceId, finalHolds, applied);
    else await this.ledger.recordBalancesAfter(applied);
  }

  /**
   * One compare-and-set round: reads the account, finds which charges it (or the ledger) shows as
   * applied, draws the rest. The account is read before the ledger: a hold's applied charges reach
   * the ledger before the hold is removed, so a charge that is in neither was never applied.
   */
  private async drawRound(workspaceId: string, pending: PendingCharge[]): Promise<AppliedCharge[] | undefined> {
    const account = await this.book.account(workspaceId);
    const onAccount = pending.map((item) => appliedOnAccount(account, item));
    const unseen = pending.filter((_, i) => !onAccount[i]);
    const onLedger = await this.ledger.balancesAfter(unseen.map(({ charge }) => charge.id));
    const toDraw = unseen.filter(({ charge }) => !onLedger.has(charge.id));
    const recorded = onAccount.filter((applied): applied is AppliedCharge => applied !== undefined);
    if (toDraw.length === 0) return recorded;
    for (const { settlement, charge } of toDraw) {
      if (settlement.holdId && !ownEntry(account.holds, settlement.holdId)) {
        this.logger.warn(
          { chargeId: charge.id, holdId: settlement.holdId, workspaceId },
          'charge arrived after its hold was released; applied as a late charge',
        );
      }
    }
    const drawn = await this.accounts.draw(
      account,
      toDraw.map(({ settlement, charge }) => ({
        holdId: settlement.holdId,
        chargeId: charge.id,
        amount: charge.amount,
        userId: charge.userId,
        sessionId: charge.sessionId,
      })),
      this.clock.now(),
    );
    return drawn && [...recorded, ...drawn];
  }
}

/** Where the account records this charge as drawn: on its open hold, or among the late charges. */
function appliedOnAccount(account: AccountDocument, { settlement, charge }: PendingCharge): AppliedCharge | undefined {
  const key = chargeKey(charge.id);
  const hold = ownEntry(account.holds, settlement.holdId);
  return (hold && ownEntry(hold.applied, key)) ?? ownEntry(account.late_charges, key);
}
