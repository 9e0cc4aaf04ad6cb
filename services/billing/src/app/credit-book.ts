import { errors, type Clock, type ErrorBody, type Logger } from '@rde/platform';
import { capTags, fitUnderCaps } from '../domain/caps';
import { insufficientCreditsBody } from '../domain/holds';
import { FREE_GRANT, freeGrantEntry } from '../domain/ledger';
import {
  ownEntry,
  type AccountDocument,
  type AccountsRepository,
  type AppliedCharge,
  type HoldRecord,
  type NewHold,
} from '../store/accounts';
import { capGuard } from '../store/cap-guard';
import type { LedgerRepository } from '../store/ledger';

/** A hold to make, and whom it is for: the caps of that member and session apply. */
export type HoldRequest = Omit<NewHold, 'createdAt' | 'expiresAt'> & {
  ttlMs: number;
  userId: string;
  sessionId: string;
  /** Work priced per unit: a spending cap may trim the hold to whole units (0 = all or nothing). */
  unit?: number;
};

/** A standing hold: the account after it, what it holds, and the cap refusal that trimmed it. */
export interface Reservation {
  account: AccountDocument;
  held: number;
  trimmedBy?: ErrorBody;
}

/** Compare-and-set rounds before giving up; the settlement is then retried by the bus with backoff. */
const MAX_ROUNDS = 50;

/** Re-reads and retries a guarded write until a round settles it (returns a value). */
export async function untilSettled<T>(what: string, round: () => Promise<T | undefined>): Promise<T> {
  for (let attempt = 1; attempt <= MAX_ROUNDS; attempt++) {
    const result = await round();
    if (result !== undefined) return result;
  }
  throw new Error(`${what}: its guarded write lost ${MAX_ROUNDS} races in a row`);
}

function refuse(body: ErrorBody): never {
  throw errors.paymentRequired(body);
}

/** How many workspaces' accounts a process keeps as last seen (oldest forgotten first). */
const LAST_SEEN_LIMIT = 10_000;

/** Each workspace's account as this process last wrote it: where a Reserve's first try starts. */
class LastSeenAccounts {
  private readonly accounts = new Map<string, AccountDocument>();

  /**
   * The copy, unless the call names a session the copy does not know: which scopes a hold counts
   * against is read from the account, and a session opened since would be missed.
   */
  usable(workspaceId: string, sessionId: string): AccountDocument | undefined {
    const account = this.accounts.get(workspaceId);
    if (!account || (sessionId && !(account.sessions && Object.hasOwn(account.sessions, sessionId)))) return undefined;
    return account;
  }

  /** Keeps the account as written, or forgets the copy when a write found the account changed. */
  remember(workspaceId: string, account: AccountDocument | null): void {
    this.accounts.delete(workspaceId);
    if (!account) return;
    this.accounts.set(workspaceId, account);
    if (this.accounts.size > LAST_SEEN_LIMIT) this.accounts.delete(this.accounts.keys().next().value!);
  }
}

/**
 * Accounts and the ledger kept in step without transactions (decision 0004): every step is one
 * guarded single-document write, so any of them can be replayed after a crash and is a no-op the
 * second time.
 */
export class CreditBook {
  private readonly lastSeen = new LastSeenAccounts();

  constructor(
    private readonly accounts: AccountsRepository,
    private readonly ledger: LedgerRepository,
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
   * The first try starts from the account as this process last saw it, which saves the read: the
   * guard makes a stale copy cost a retry, never a wrong hold, and a refusal or a standing hold
   * seen only on that copy is checked again on a fresh read.
   */
  reserve(workspaceId: string, request: HoldRequest): Promise<Reservation> {
    let lastSeen = this.lastSeen.usable(workspaceId, request.sessionId);
    return untilSettled(`reserve of hold ${request.id}`, async () => {
      const stale = lastSeen;
      lastSeen = undefined;
      const account = stale ?? (await this.account(workspaceId));
      const standing = ownEntry(account.holds, request.id);
      if (standing) return stale ? undefined : { account, held: standing.amount };
      const now = this.clock.now();
      const tags = capTags(account, request.userId, request.sessionId, now);
      const fit = fitUnderCaps(account, tags, request.amount, request.unit ?? 0, now);
      if ('refusal' in fit) return stale ? undefined : refuse(fit.refusal);
      if (account.available < fit.amount) {
        return stale ? undefined : refuse(insufficientCreditsBody(fit.amount, account.available));
      }
      const hold = { ...request, amount: fit.amount, createdAt: now, expiresAt: now + request.ttlMs };
      const written = await this.accounts.reserve(workspaceId, hold, tags, capGuard(account, tags, fit.amount, now));
      this.lastSeen.remember(workspaceId, written);
      return written
        ? { account: written, held: fit.amount, ...(fit.trimmedBy && { trimmedBy: fit.trimmedBy }) }
        : undefined;
    });
  }

  /**
   * Gives back what the holds did not draw, in one account update. Their applied charges (and
   * `alsoRecord`, charges just drawn elsewhere) reach the ledger first, so an applied charge is
   * always on an open hold, in late_charges, or on the ledger with its balance after.
   */
  async releaseHolds(
    workspaceId: string,
    holdIds: string[],
    alsoRecord: AppliedCharge[] = [],
    stillDue: (hold: HoldRecord) => boolean = () => true,
  ): Promise<void> {
    await untilSettled(`release of ${holdIds.length} hold(s) of ${workspaceId}`, async () => {
      const account = await this.accounts.find(workspaceId);
      const open = [...new Set(holdIds)].flatMap((id) => {
        const hold = account && ownEntry(account.holds, id);
        return hold && stillDue(hold) ? [[id, hold] as [string, HoldRecord]] : [];
      });
      await this.ledger.recordBalancesAfter([
        ...alsoRecord,
        ...open.flatMap(([, hold]) => Object.values(hold.applied)),
      ]);
      if (open.length === 0) return true;
      return (await this.accounts.release(workspaceId, open)) || undefined;
    });
  }

  /**
   * Keeps an open hold alive until at least `ttlMs` from now (expiry = max(current, now + ttl)),
   * for work that outlives one hold lifetime. A hold no longer open is never revived: the answer
   * is then undefined. Safe for any number of renewers: the write only ever moves expiry later.
   */
  async renewHold(workspaceId: string, holdId: string, ttlMs: number): Promise<number | undefined> {
    const wanted = this.clock.now() + ttlMs;
    if (await this.accounts.extendHold(workspaceId, holdId, wanted)) return wanted;
    const hold = (await this.accounts.find(workspaceId))?.holds;
    return hold && ownEntry(hold, holdId)?.expires_at;
  }

  /** Releases every hold past its expiry; returns how many. */
  async releaseExpiredHolds(): Promise<number> {
    const now = this.clock.now();
    let released = 0;
    for await (const account of this.accounts.withOpenHolds()) {
      const expired = Object.entries(account.holds).filter(([, hold]) => hold.expires_at <= now);
      if (expired.length === 0) continue;
      // Re-checked on every round: a hold renewed meanwhile (RenewHold) is no longer due.
      await this.releaseHolds(
        account._id,
        expired.map(([holdId]) => holdId),
        [],
        (hold) => hold.expires_at <= now,
      );
      for (const [holdId, hold] of expired) {
        this.logger.info(
          { workspaceId: account._id, holdId, drawn: hold.drawn, amount: hold.amount },
          'expired hold released',
        );
      }
      released += expired.length;
    }
    return released;
  }
}
