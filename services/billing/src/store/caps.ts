import type { Collection } from '@rde/platform';
import { memberKey, type SessionMoney } from '../domain/caps';
import type { PlanId } from '../domain/plans';
import type { AccountDocument } from './accounts';

/** Setting and clearing caps on the account document; a Reserve's guard compares what it read. */
export class SpendCapsRepository {
  constructor(private readonly accounts: Collection<AccountDocument>) {}

  /** Sets the field to `value`, or clears it when `value` is undefined. */
  private async change(workspaceId: string, path: string, value: unknown): Promise<void> {
    const write = value === undefined ? { $unset: { [path]: '' as const } } : { $set: { [path]: value } };
    await this.accounts.updateOne({ _id: workspaceId }, write);
  }

  /** The plan prices the USD caps, so a change of plan is a change of caps. */
  setPlan(workspaceId: string, planId: PlanId): Promise<void> {
    return this.change(workspaceId, 'plan_id', planId);
  }

  setWorkspaceCap(workspaceId: string, millicredits: number | undefined): Promise<void> {
    return this.change(workspaceId, 'workspace_cap', millicredits);
  }

  setSessionDefaultCap(workspaceId: string, cents: number | undefined): Promise<void> {
    return this.change(workspaceId, 'session_default_cap_cents', cents);
  }

  setMemberCap(workspaceId: string, userId: string, cents: number | undefined): Promise<void> {
    const value = cents === undefined ? undefined : { user_id: userId, cap_cents: cents };
    return this.change(workspaceId, `member_caps.${memberKey(userId)}`, value);
  }

  setSessionCap(workspaceId: string, sessionId: string, cents: number | undefined): Promise<void> {
    return this.change(workspaceId, `sessions.${sessionId}.cap_cents`, cents);
  }

  /** Opens a session's money with the cap it inherits; a repeat leaves the first one. */
  async openSession(workspaceId: string, sessionId: string, capCents: number | undefined): Promise<void> {
    const money: SessionMoney = { spent: 0, ended: false, ...(capCents !== undefined && { cap_cents: capCents }) };
    await this.accounts.updateOne(
      { _id: workspaceId, [`sessions.${sessionId}`]: { $exists: false } },
      { $set: { [`sessions.${sessionId}`]: money } },
    );
  }

  /** Later Reserves no longer count against an ended session. */
  async endSession(workspaceId: string, sessionId: string): Promise<void> {
    await this.accounts.updateOne({ _id: workspaceId }, { $set: { [`sessions.${sessionId}.ended`]: true } });
  }
}
