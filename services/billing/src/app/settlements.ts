import type { Clock, Logger } from '@rde/platform';
import { untilSettled, type CreditBook } from './credit-book';
import { chargeKey } from '../domain/holds';
import { chargeEntry, type Charge, type Settlement } from '../domain/ledger';
import { drawWrite, releaseWrite } from '../store/account-writes';
import {
  ownEntry,
  type AccountDocument,
  type AccountsRepository,
  type AppliedCharge,
  type Draw,
  type HoldRecord,
} from '../store/accounts';
import type { LedgerRepository } from '../store/ledger';

/** A charge of the batch, with the settlement that carried it. */
interface PendingCharge {
  settlement: Settlement;
  charge: Charge;
}

/** What a batch asks of one workspace. */
interface WorkspaceWork {
  workspaceId: string;
  pending: PendingCharge[];
  /** The holds whose settlement in this batch was final. */
  finalHolds: string[];
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
    private readonly accounts: AccountsRepository,
    private readonly ledger: LedgerRepository,
    private readonly book: CreditBook,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  async apply(settlements: Settlement[]): Promise<void> {
    const pending = await this.writeLedgerEntries(settlements);
    const work = [...new Set(settlements.map((settlement) => settlement.workspaceId))].map((workspaceId) => ({
      workspaceId,
      pending: pending.filter(({ settlement }) => settlement.workspaceId === workspaceId),
      finalHolds: [
        ...new Set(
          settlements.filter((s) => s.workspaceId === workspaceId && s.final && s.holdId).map((s) => s.holdId),
        ),
      ],
    }));
    if (await this.applyInBulk(work)) return;
    await Promise.all(
      work.map(({ workspaceId, pending, finalHolds }) => this.applyToWorkspace(workspaceId, pending, finalHolds)),
    );
  }

  /**
   * The common case in a fixed number of round trips whatever the batch holds: every account read
   * at once, the ledger read once for the charges no account shows, every workspace's draw in one
   * bulk write, every balance after in another, every release in a third. Returns false when an
   * account is missing or a guard failed (another writer moved first); the caller then applies
   * each workspace on its own, which re-reads and finds done what this did.
   */
  private async applyInBulk(work: WorkspaceWork[]): Promise<boolean> {
    const accounts = await this.accounts.findMany(work.map(({ workspaceId }) => workspaceId));
    if (accounts.size < work.length) return false;
    const seen = work.map(({ workspaceId, pending }) => seenCharges(accounts.get(workspaceId)!, pending));
    const onLedger = await this.ledger.balancesAfter(
      seen.flatMap(({ unseen }) => unseen.map(({ charge }) => charge.id)),
    );
    const draws = work.map(({ workspaceId }, i) => {
      const toDraw = seen[i]!.unseen.filter(({ charge }) => !onLedger.has(charge.id));
      return toDraw.length === 0 ? undefined : this.drawOf(accounts.get(workspaceId)!, toDraw);
    });
    const drawWrites = draws.flatMap((draw) => (draw ? [draw.write] : []));
    if (!(await this.accounts.writeEach(drawWrites))) return false;
    const releases = work.map(({ workspaceId, finalHolds }, i) =>
      finalHolds.flatMap((holdId) => {
        const hold = draws[i]?.holdsAfter.get(holdId) ?? ownEntry(accounts.get(workspaceId)!.holds, holdId);
        return hold ? [[holdId, hold] as [string, HoldRecord]] : [];
      }),
    );
    // Every applied charge reaches the ledger before its hold is removed (decision 0004).
    await this.ledger.recordBalancesAfter([
      ...seen.flatMap(({ recorded }) => recorded),
      ...draws.flatMap((draw) => draw?.recorded ?? []),
      ...releases.flat().flatMap(([, hold]) => Object.values(hold.applied)),
    ]);
    return this.accounts.writeEach(
      work.flatMap(({ workspaceId }, i) => (releases[i]!.length > 0 ? [releaseWrite(workspaceId, releases[i]!)] : [])),
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
    const { unseen, recorded } = seenCharges(account, pending);
    const onLedger = await this.ledger.balancesAfter(unseen.map(({ charge }) => charge.id));
    const toDraw = unseen.filter(({ charge }) => !onLedger.has(charge.id));
    if (toDraw.length === 0) return recorded;
    const drawn = await this.accounts.draw(account, this.drawsOf(account, toDraw), this.clock.now());
    return drawn && [...recorded, ...drawn];
  }

  private drawOf(account: AccountDocument, toDraw: PendingCharge[]) {
    return drawWrite(account, this.drawsOf(account, toDraw), this.clock.now());
  }

  /** The draws of these charges, never applied yet; a charge whose hold is gone is a late charge. */
  private drawsOf(account: AccountDocument, toDraw: PendingCharge[]): Draw[] {
    return toDraw.map(({ settlement, charge }) => {
      if (settlement.holdId && !ownEntry(account.holds, settlement.holdId)) {
        this.logger.warn(
          { chargeId: charge.id, holdId: settlement.holdId, workspaceId: account._id },
          'charge arrived after its hold was released; applied as a late charge',
        );
      }
      return {
        holdId: settlement.holdId,
        chargeId: charge.id,
        amount: charge.amount,
        userId: charge.userId,
        sessionId: charge.sessionId,
      };
    });
  }
}

/** Of these charges, what the account records as applied, and those it does not show. */
function seenCharges(account: AccountDocument, pending: PendingCharge[]) {
  const onAccount = pending.map((item) => appliedOnAccount(account, item));
  return {
    unseen: pending.filter((_, i) => !onAccount[i]),
    recorded: onAccount.filter((applied): applied is AppliedCharge => applied !== undefined),
  };
}

/** Where the account records this charge as drawn: on its open hold, or among the late charges. */
function appliedOnAccount(account: AccountDocument, { settlement, charge }: PendingCharge): AppliedCharge | undefined {
  const key = chargeKey(charge.id);
  const hold = ownEntry(account.holds, settlement.holdId);
  return (hold && ownEntry(hold.applied, key)) ?? ownEntry(account.late_charges, key);
}
