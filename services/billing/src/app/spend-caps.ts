import { errors, type Caller, type Clock } from '@rde/platform';
import type { CreditBook } from './credit-book';
import { memberKey, millicreditsToCents, windowSpend } from '../domain/caps';
import { requireOwner } from '../domain/roles';
import type { SpendCapsRepository } from '../store/caps';

export interface MemberCapRow {
  user_id: string;
  /** undefined = uncapped */
  cap_cents?: number;
  spent_30d_cents: number;
}

/** 0 clears a cap; anything else must be a positive whole amount. */
function capValue(amount: number, unit: string): number | undefined {
  if (!Number.isSafeInteger(amount) || amount < 0)
    throw errors.badRequest({ detail: `the cap must be ${unit} above 0` });
  return amount === 0 ? undefined : amount;
}

/** Setting and reading the three caps (decision 0020); Reserve enforces them. */
export class SpendCaps {
  constructor(
    private readonly book: CreditBook,
    private readonly caps: SpendCapsRepository,
    private readonly clock: Clock,
  ) {}

  setWorkspaceCap(caller: Caller, millicredits: number): Promise<number | undefined> {
    return this.setCap(caller, millicredits, 'millicredits', (cap) =>
      this.caps.setWorkspaceCap(caller.workspaceId, cap),
    );
  }

  setSessionDefaultCap(caller: Caller, cents: number): Promise<number | undefined> {
    return this.setCap(caller, cents, 'cents', (cap) => this.caps.setSessionDefaultCap(caller.workspaceId, cap));
  }

  async setMemberCap(caller: Caller, userId: string, cents: number): Promise<number | undefined> {
    requireOwner(caller);
    if (!userId) throw errors.badRequest({ detail: 'user_id is required' });
    return this.setCap(caller, cents, 'cents', (cap) => this.caps.setMemberCap(caller.workspaceId, userId, cap));
  }

  /** An owner's cap write (the owner checked before the amount), on the workspace's account, opened if new. */
  private async setCap(
    caller: Caller,
    amount: number,
    unit: string,
    write: (cap: number | undefined) => Promise<unknown>,
  ): Promise<number | undefined> {
    requireOwner(caller);
    const cap = capValue(amount, unit);
    await this.book.account(caller.workspaceId);
    await write(cap);
    return cap;
  }

  async memberCaps(caller: Caller, userIds: string[]): Promise<MemberCapRow[]> {
    const account = await this.book.account(caller.workspaceId);
    const now = this.clock.now();
    return userIds.map((userId) => {
      const key = memberKey(userId);
      const cap = account.member_caps?.[key];
      const spent = windowSpend(account.member_spend?.[key], now);
      return {
        user_id: userId,
        ...(cap && { cap_cents: cap.cap_cents }),
        spent_30d_cents: millicreditsToCents(spent, account.plan_id),
      };
    });
  }
}
