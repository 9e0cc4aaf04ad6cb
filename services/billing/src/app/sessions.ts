import { errors, type Caller, type Clock, type Update } from '@rde/platform';
import type { CreditBook } from './credit-book';
import { millicreditsToCents, type SessionMoney } from '../domain/caps';
import { isOwner } from '../domain/roles';
import { isStepStatus, newSessionId, requireSessionId } from '../domain/sessions';
import type { PlanId } from '../domain/plans';
import type { SpendCapsRepository } from '../store/caps';
import type { SessionDocument, SessionsRepository } from '../store/sessions';

const MEMBER_LIMIT_DETAIL =
  'A member may only lower a session cap below the workspace default; raising or clearing it needs the owner.';

/** The session as its public JSON object (decision 0021). */
export function sessionView(session: SessionDocument, money: SessionMoney | undefined, planId: PlanId) {
  return {
    id: session._id,
    user_prompt: session.user_prompt,
    steps: session.steps.map((step, index) => ({ index, step, status: session.step_statuses[index] })),
    status: session.ended_at === null ? 'open' : 'ended',
    message: session.message,
    step_index: session.step_index,
    alert: session.alert,
    outputs: session.outputs.map((output) => ({ ...output, created_at: new Date(output.created_at).toISOString() })),
    cap_usd: money?.cap_cents === undefined ? null : money.cap_cents / 100,
    spent_usd: millicreditsToCents(money?.spent ?? 0, planId) / 100,
    created_at: new Date(session.created_at).toISOString(),
    ended_at: session.ended_at === null ? null : new Date(session.ended_at).toISOString(),
  };
}

export type SessionView = ReturnType<typeof sessionView>;

/** Agent sessions: plan and progress here, their money on the account where Reserve checks it. */
export class Sessions {
  constructor(
    private readonly book: CreditBook,
    private readonly sessions: SessionsRepository,
    private readonly caps: SpendCapsRepository,
    private readonly clock: Clock,
  ) {}

  async start(caller: Caller, steps: unknown[], userPrompt: string): Promise<SessionView> {
    const now = this.clock.now();
    const session: SessionDocument = {
      _id: newSessionId(),
      workspace_id: caller.workspaceId,
      user_id: caller.userId,
      user_prompt: userPrompt,
      steps,
      step_statuses: steps.map(() => 'pending'),
      message: null,
      step_index: null,
      alert: null,
      outputs: [],
      feedback: [],
      created_at: now,
      ended_at: null,
    };
    const account = await this.book.account(caller.workspaceId);
    // The money first: a session the client can see always has its cap in place.
    await this.caps.openSession(caller.workspaceId, session._id, account.session_default_cap_cents);
    await this.sessions.insert(session);
    return this.view(caller, session);
  }

  async get(caller: Caller, sessionId: string): Promise<SessionView> {
    return this.view(caller, await this.existing(caller, sessionId));
  }

  async updateStep(caller: Caller, sessionId: string, index: number, status: string): Promise<SessionView> {
    const session = await this.existing(caller, sessionId);
    if (!isStepStatus(status)) throw errors.badRequest({ detail: `status must be one of the step statuses` });
    if (!Number.isInteger(index) || index < 0 || index >= session.steps.length) {
      throw errors.validation([
        { loc: ['body', 'index'], msg: `the plan has ${session.steps.length} steps`, type: 'out_of_range' },
      ]);
    }
    return this.change(caller, sessionId, { $set: { [`step_statuses.${index}`]: status } });
  }

  async setStatus(caller: Caller, sessionId: string, message: string, stepIndex: number): Promise<SessionView> {
    await this.existing(caller, sessionId);
    return this.change(caller, sessionId, { $set: { message, step_index: stepIndex >= 0 ? stepIndex : null } });
  }

  async addOutput(caller: Caller, sessionId: string, csv: string, label: string): Promise<SessionView> {
    await this.existing(caller, sessionId);
    const output = { csv, label, created_at: this.clock.now() };
    return this.change(caller, sessionId, { $push: { outputs: output } });
  }

  async setAlert(caller: Caller, sessionId: string, message: string): Promise<SessionView> {
    await this.existing(caller, sessionId);
    return this.change(caller, sessionId, { $set: { alert: message || null } });
  }

  async addFeedback(caller: Caller, sessionId: string, message: string): Promise<SessionView> {
    await this.existing(caller, sessionId);
    const feedback = { message, user_id: caller.userId, created_at: this.clock.now() };
    return this.change(caller, sessionId, { $push: { feedback } });
  }

  /** Idempotent: the first end's time stays. */
  async end(caller: Caller, sessionId: string): Promise<SessionView> {
    const session = await this.existing(caller, sessionId);
    await this.caps.endSession(caller.workspaceId, sessionId);
    if (session.ended_at !== null) return this.view(caller, session);
    await this.sessions.update(
      caller.workspaceId,
      sessionId,
      { $set: { ended_at: this.clock.now() } },
      { ended_at: null },
    );
    return this.get(caller, sessionId);
  }

  /** 0 cents removes the cap. A member may only lower it to the workspace default or below. */
  async setLimit(caller: Caller, sessionId: string, cents: number): Promise<SessionView> {
    await this.existing(caller, sessionId);
    if (!Number.isSafeInteger(cents) || cents < 0) throw errors.badRequest({ detail: 'usd must be above 0 or null' });
    const account = await this.book.account(caller.workspaceId);
    const ceiling = account.session_default_cap_cents;
    if (!isOwner(caller) && ceiling !== undefined && (cents === 0 || cents > ceiling)) {
      throw errors.forbidden(MEMBER_LIMIT_DETAIL);
    }
    await this.caps.setSessionCap(caller.workspaceId, sessionId, cents === 0 ? undefined : cents);
    return this.get(caller, sessionId);
  }

  private async existing(caller: Caller, sessionId: string): Promise<SessionDocument> {
    const session = await this.sessions.find(caller.workspaceId, requireSessionId(sessionId));
    if (!session) throw errors.notFound('Session not found');
    return session;
  }

  private async change(caller: Caller, sessionId: string, update: Update): Promise<SessionView> {
    const changed = await this.sessions.update(caller.workspaceId, sessionId, update);
    if (!changed) throw errors.notFound('Session not found');
    return this.view(caller, changed);
  }

  private async view(caller: Caller, session: SessionDocument): Promise<SessionView> {
    const account = await this.book.account(caller.workspaceId);
    const money =
      account.sessions && Object.hasOwn(account.sessions, session._id) ? account.sessions[session._id] : undefined;
    return sessionView(session, money, account.plan_id);
  }
}
