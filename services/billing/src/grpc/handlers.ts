import { errors, type CallContext, type ErrorBody, type Handlers } from '@rde/platform';
import { billing, type common } from '@rde/proto';
import type { CreditBook } from '../app/credit-book';
import { isMillicredits } from '../domain/credits';
import { isHoldId } from '../domain/holds';
import type { LedgerEntry } from '../domain/ledger';
import { PLAN_CATALOG } from '../domain/plans';
import type { PlanState } from '../domain/subscriptions';
import type { AccountDocument } from '../store/accounts';
import type { LedgerRepository } from '../store/ledger';

const RECENT_DEFAULT = 10;
const RECENT_MAX = 100;
const PAGE_DEFAULT = 100;
const PAGE_MAX = 1_000;
const HOLD_TTL_MAX_MS = 24 * 60 * 60_000;

export interface BillingHandlerDependencies {
  book: CreditBook;
  ledger: LedgerRepository;
  defaultHoldTtlMs: number;
  planState(workspaceId: string): Promise<PlanState>;
}

/** Proto ⇄ domain only: the rules live in the credit book and the domain. */
export function billingHandlers(deps: BillingHandlerDependencies): Handlers<typeof billing.BillingServiceService> {
  const { book, ledger } = deps;
  // The plan catalog is fixed for the life of the process: encoded once, not on every read.
  const planCatalogJson = json(PLAN_CATALOG);
  return {
    async listPlans() {
      return { catalogJson: planCatalogJson };
    },

    async getPlanState(_request, context) {
      const workspaceId = workspaceOf(context);
      await book.account(workspaceId);
      return { planStateJson: json(await deps.planState(workspaceId)) };
    },

    async getBalance(request, context) {
      const workspaceId = workspaceOf(context);
      const recent = limitOf(request.recent, RECENT_DEFAULT, RECENT_MAX, 'recent');
      const account = await book.account(workspaceId);
      const [entries, planState] = await Promise.all([ledger.recent(workspaceId, recent), deps.planState(workspaceId)]);
      return {
        account: toAccount(account),
        recentEntries: entries.map(toLedgerEntry),
        planStateJson: json(planState),
      };
    },

    async listLedger(request, context) {
      const workspaceId = workspaceOf(context);
      const offset = request.page?.offset ?? 0;
      if (offset < 0) throw errors.badRequest({ detail: 'page.offset must be 0 or more' });
      const limit = limitOf(request.page?.limit ?? 0, PAGE_DEFAULT, PAGE_MAX, 'page.limit');
      await book.account(workspaceId);
      const [entries, total] = await Promise.all([ledger.page(workspaceId, offset, limit), ledger.count(workspaceId)]);
      return { entries: entries.map(toLedgerEntry), page: { offset, limit, total } };
    },

    async reserve(request, context) {
      const workspaceId = workspaceOf(context);
      const amount = request.amount?.millicredits ?? 0;
      if (!isHoldId(request.holdId)) {
        throw errors.badRequest({ detail: 'hold_id must be 1 to 128 letters, digits, _ or -' });
      }
      if (!isMillicredits(amount) || amount === 0) {
        throw errors.badRequest({ detail: 'amount must be a whole number of millicredits above 0' });
      }
      const ttlMs = ttlOf(request.ttlMs, deps.defaultHoldTtlMs);
      const unit = request.unit?.millicredits ?? 0;
      if (!isMillicredits(unit)) throw errors.badRequest({ detail: 'unit must be a whole number of millicredits' });
      const { account, held, trimmedBy } = await book.reserve(workspaceId, {
        id: request.holdId,
        amount,
        ttlMs,
        runId: request.runId,
        description: request.description,
        userId: context.caller?.userId ?? '',
        sessionId: context.caller?.sessionId ?? '',
        unit,
      });
      return {
        holdId: request.holdId,
        account: toAccount(account),
        held: credits(held),
        capRefusalJson: trimmedBy ? json(trimmedBy) : Buffer.alloc(0),
        ...(trimmedBy && { capRefusal: capRefusalOf(trimmedBy) }),
      };
    },

    async renewHold(request, context) {
      const workspaceId = workspaceOf(context);
      if (!isHoldId(request.holdId)) {
        throw errors.badRequest({ detail: 'hold_id must be 1 to 128 letters, digits, _ or -' });
      }
      const ttlMs = ttlOf(request.ttlMs, deps.defaultHoldTtlMs);
      const expiresAt = await book.renewHold(workspaceId, request.holdId, ttlMs);
      return { renewed: expiresAt !== undefined, expiresAtMs: expiresAt ?? 0 };
    },
  };
}

/** A hold's lifetime as asked: 0 means the default, anything else at most HOLD_TTL_MAX_MS. */
function ttlOf(requested: number, fallback: number): number {
  if (requested < 0 || requested > HOLD_TTL_MAX_MS) {
    throw errors.badRequest({ detail: `ttl_ms must be between 0 (the default) and ${HOLD_TTL_MAX_MS}` });
  }
  return requested || fallback;
}

/** Billing reads and changes only the caller's own workspace. */
export function workspaceOf(context: CallContext): string {
  const workspaceId = context.caller?.workspaceId;
  if (!workspaceId) throw errors.unauthenticated();
  return workspaceId;
}

/** 0 means the default; anything else must lie in 1..max. */
function limitOf(requested: number, fallback: number, max: number, name: string): number {
  if (requested === 0) return fallback;
  if (requested < 0 || requested > max) throw errors.badRequest({ detail: `${name} must be between 1 and ${max}` });
  return requested;
}

export function json(value: unknown): Buffer {
  return Buffer.from(JSON.stringify(value));
}

const credits = (millicredits: number): common.Credits => ({ millicredits });

function toAccount(account: AccountDocument): billing.Account {
  return {
    workspaceId: account._id,
    balance: credits(account.balance),
    reserved: credits(account.reserved),
    available: credits(account.available),
    openHolds: account.open_holds,
  };
}

export function toLedgerEntry(entry: LedgerEntry): billing.LedgerEntry {
  return {
    id: entry._id,
    workspaceId: entry.workspace_id,
    kind: entry.kind,
    amount: credits(entry.amount),
    description: entry.description,
    runId: entry.run_id,
    holdId: entry.hold_id,
    userId: entry.user_id,
    sessionId: entry.session_id,
    workflowRunId: entry.workflow_run_id,
    createdAtMs: entry.created_at,
    ...(entry.balance_after !== undefined && { balanceAfter: credits(entry.balance_after) }),
  };
}

/** A cap's refusal as the typed message callers decode (its 402 body's reason, scope and sentence). */
function capRefusalOf(body: ErrorBody): billing.CapRefusal {
  const text = (field: unknown) => (typeof field === 'string' ? field : '');
  return { reason: text(body.reason), capScope: text(body.cap_scope), detail: text(body.detail) };
}
