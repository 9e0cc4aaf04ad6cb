import type { ErrorBody } from '@rde/platform';
import { publicCredits } from './credits';
import { planById, type PlanId } from './plans';

/**
 * The three spend caps (decision 0020), as pure rules over the account document's cap fields.
 * Spend is counted per UTC day when credits are held (the hold's worst case) and given back when
 * a hold is released undrawn, so what is in flight counts against a cap and two concurrent calls
 * cannot both cross it.
 */

/** The rolling window of the workspace and member caps, in whole UTC days (today included). */
export const CAP_WINDOW_DAYS = 30;
const DAY_MS = 24 * 60 * 60_000;

/** The caps and spend counters the account document carries (all absent until first used). */
export interface CapFields {
  plan_id: PlanId;
  /** Workspace cap, millicredits over the window. */
  workspace_cap?: number;
  /** Default USD cap (cents) of sessions started afterwards. */
  session_default_cap_cents?: number;
  /** by memberKey(user id) */
  member_caps?: Record<string, { user_id: string; cap_cents: number }>;
  /** millicredits held or spent per UTC day (`dayKey`) */
  spend?: Record<string, number>;
  /** by memberKey(user id), then by day */
  member_spend?: Record<string, Record<string, number>>;
  /** by session id: the session's money, kept here so Reserve checks it in the same write */
  sessions?: Record<string, SessionMoney>;
}

export interface SessionMoney {
  /** USD cap in cents; absent = uncapped */
  cap_cents?: number;
  /** millicredits held or spent by calls carrying the session */
  spent: number;
  ended: boolean;
}

/** Where a hold's amount was counted, so its release gives back exactly there. */
export interface CapTags {
  day: string;
  member?: string;
  session?: string;
}

/** A UTC day as a field name: `d20261126`. */
export function dayKey(ms: number): string {
  return `d${new Date(ms).toISOString().slice(0, 10).replaceAll('-', '')}`;
}

/** User ids become field names: encoded so no `.` or `$` can reach a path. */
export function memberKey(userId: string): string {
  return Buffer.from(userId, 'utf8').toString('base64url');
}

/** The days a rolling window counts: the last 30 UTC days up to today, and tomorrow (a replica's clock may run ahead). */
export function windowDays(now: number): string[] {
  return Array.from({ length: CAP_WINDOW_DAYS + 1 }, (_, index) =>
    dayKey(now - (CAP_WINDOW_DAYS - 1 - index) * DAY_MS),
  );
}

/** What the rolling window holds of a per-day counter. */
export function windowSpend(days: Record<string, number> | undefined, now: number): number {
  let total = 0;
  for (const day of windowDays(now)) total += days?.[day] ?? 0;
  return total;
}

/**
 * The plan's list price per credit converts USD caps (decision 0020): monthly price over monthly
 * credits. Plans without a list price (Free, Enterprise) use the entry plan's.
 */
function listPrice(planId: PlanId): { cents: number; credits: number } {
  const plan = planById(planId);
  if (plan.monthly_amount_cents && plan.monthly_credits) {
    return { cents: plan.monthly_amount_cents, credits: plan.monthly_credits };
  }
  const entry = planById('starter');
  return { cents: entry.monthly_amount_cents!, credits: entry.monthly_credits! };
}

/** A USD amount (cents) in millicredits, rounded down: a cap never allows more than its dollars. */
export function centsToMillicredits(cents: number, planId: PlanId): number {
  const price = listPrice(planId);
  return Math.floor((cents * price.credits * 1000) / price.cents);
}

/** Millicredits in USD cents, to the nearest cent (for display). */
export function millicreditsToCents(amount: number, planId: PlanId): number {
  const price = listPrice(planId);
  return Math.round((amount * price.cents) / (price.credits * 1000));
}

/** The scopes a Reserve counts against: today, the calling member, its open session. */
export function capTags(account: CapFields, userId: string, sessionId: string, now: number): CapTags {
  const session = sessionId ? account.sessions?.[sessionId] : undefined;
  return {
    day: dayKey(now),
    ...(userId && { member: memberKey(userId) }),
    ...(session && !session.ended && Object.hasOwn(account.sessions!, sessionId) && { session: sessionId }),
  };
}

/** Which of the Reserve's scopes carry a cap. */
export function cappedScopes(account: CapFields, tags: CapTags) {
  return {
    workspace: account.workspace_cap !== undefined,
    member: tags.member !== undefined && account.member_caps?.[tags.member] !== undefined,
    session: tags.session !== undefined && account.sessions?.[tags.session]?.cap_cents !== undefined,
  };
}

const usd = (cents: number) => cents / 100;

/** The refusal of a Reserve of `amount` that would cross a cap: session, then member, then workspace. */
export function capRefusal(account: CapFields, tags: CapTags, amount: number, now: number): ErrorBody | undefined {
  const plan = account.plan_id;
  const session = tags.session ? account.sessions?.[tags.session] : undefined;
  if (session?.cap_cents !== undefined && session.spent + amount > centsToMillicredits(session.cap_cents, plan)) {
    return {
      error: 'session_limit',
      reason: 'session_limit',
      session_id: tags.session,
      cap_usd: usd(session.cap_cents),
      spent_usd: usd(millicreditsToCents(session.spent, plan)),
      detail: `This call would take session ${tags.session} past its cap of $${usd(session.cap_cents)}.`,
    };
  }
  const memberCap = tags.member ? account.member_caps?.[tags.member] : undefined;
  if (memberCap) {
    const spent = windowSpend(account.member_spend?.[tags.member!], now);
    if (spent + amount > centsToMillicredits(memberCap.cap_cents, plan)) {
      return {
        error: 'spending_cap_reached',
        reason: 'spending_cap_reached',
        cap_scope: 'member',
        cap_usd: usd(memberCap.cap_cents),
        spent_30d_usd: usd(millicreditsToCents(spent, plan)),
        detail: `This call would take your spending past your cap of $${usd(memberCap.cap_cents)} over ${CAP_WINDOW_DAYS} days.`,
      };
    }
  }
  if (account.workspace_cap !== undefined) {
    const spent = windowSpend(account.spend, now);
    if (spent + amount > account.workspace_cap) {
      return {
        error: 'spending_cap_reached',
        reason: 'spending_cap_reached',
        cap_scope: 'workspace',
        cap: publicCredits(account.workspace_cap),
        spent_30d: publicCredits(spent),
        detail: `This call would take the workspace past its spending cap of ${publicCredits(account.workspace_cap)} credits over ${CAP_WINDOW_DAYS} days.`,
      };
    }
  }
  return undefined;
}

/** What the member and workspace caps still allow (millicredits); Infinity when neither applies. */
export function capRoom(account: CapFields, tags: CapTags, now: number): number {
  let room = Infinity;
  const memberCap = tags.member ? account.member_caps?.[tags.member] : undefined;
  if (memberCap) {
    const spent = windowSpend(account.member_spend?.[tags.member!], now);
    room = Math.min(room, centsToMillicredits(memberCap.cap_cents, account.plan_id) - spent);
  }
  if (account.workspace_cap !== undefined)
    room = Math.min(room, account.workspace_cap - windowSpend(account.spend, now));
  return Math.max(0, room);
}

/** What a Reserve may hold under the caps, or the refusal it meets. */
export type CapFit = { amount: number; trimmedBy?: ErrorBody } | { refusal: ErrorBody };

/**
 * The caps' answer to a Reserve of `amount`. Work priced per `unit` (an enrichment row, rule 9)
 * that a member or workspace cap refuses whole is trimmed to the units that fit; a session cap
 * (`session_limit`) is never trimmed around, and no unit fitting is the refusal itself.
 */
export function fitUnderCaps(account: CapFields, tags: CapTags, amount: number, unit: number, now: number): CapFit {
  const refusal = capRefusal(account, tags, amount, now);
  if (!refusal) return { amount };
  if (unit <= 0 || refusal.reason !== 'spending_cap_reached') return { refusal };
  const units = Math.min(Math.floor(amount / unit), Math.floor(capRoom(account, tags, now) / unit));
  if (units === 0) return { refusal };
  const trimmed = units * unit;
  const stillRefused = capRefusal(account, tags, trimmed, now);
  return stillRefused ? { refusal: stillRefused } : { amount: trimmed, trimmedBy: refusal };
}

/** The counters a hold of `amount` adds to (or, negative, gives back to). */
export function spendIncrements(tags: CapTags, amount: number): Record<string, number> {
  return {
    [`spend.${tags.day}`]: amount,
    ...(tags.member && { [`member_spend.${tags.member}.${tags.day}`]: amount }),
    ...(tags.session && { [`sessions.${tags.session}.spent`]: amount }),
  };
}
