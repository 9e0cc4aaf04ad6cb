import { errors } from '../../src/errors';
import type { BillingClient } from '../../src/paid-run';

/**
 * Billing's hold RPCs as the kit sees them over the wire, with the answers billing's Reserve gives
 * (its own suites pin how it decides them): a hold per id, held once; 402 `insufficient_credits`
 * stating what is available in credits; a session cap's `session_limit`; a workspace spending cap
 * that trims work priced per unit to the units that fit, and refuses when not one fits.
 */
export class BillingDouble {
  available: number;
  /** A workspace spending cap (millicredits) on what is held, when set. */
  workspaceCap?: number;
  sessionCapped = false;
  /** Open holds by id: what each holds. */
  readonly holds = new Map<string, number>();
  reserveCalls = 0;
  /** Each RenewHold asked: the hold and the workspace it was asked for. */
  readonly renewals: { holdId: string; workspaceId: string }[] = [];
  /** Holds whose RenewHold fails (billing unreachable for them), as a deadline would. */
  readonly failingRenewals = new Set<string>();

  constructor(available: number) {
    this.available = available;
  }

  /** Billing applied a final settlement: the hold is gone (charges are the ledger's business). */
  settle(holdId: string): void {
    this.holds.delete(holdId);
  }

  readonly client = {
    reserve: async (request: {
      holdId: string;
      amount?: { millicredits: number };
      unit?: { millicredits: number };
    }) => {
      this.reserveCalls++;
      const standing = this.holds.get(request.holdId);
      if (standing !== undefined) return this.reply(request.holdId, standing);
      const amount = request.amount?.millicredits ?? 0;
      if (this.sessionCapped) {
        throw errors.paymentRequired({
          error: 'session_limit',
          reason: 'session_limit',
          detail: 'Session at its cap.',
        });
      }
      const unit = request.unit?.millicredits ?? 0;
      const capped = this.workspaceCap !== undefined && amount > this.workspaceCap;
      const held = capped && unit > 0 ? Math.floor(this.workspaceCap! / unit) * unit : amount;
      if (capped && held === 0) throw errors.paymentRequired(CAP_BODY);
      if (capped && unit === 0) throw errors.paymentRequired(CAP_BODY);
      if (held > this.available) {
        throw errors.paymentRequired({ error: 'insufficient_credits', available: this.available / 1000 });
      }
      this.available -= held;
      this.holds.set(request.holdId, held);
      return this.reply(request.holdId, held, capped);
    },
    renewHold: async ({ holdId }: { holdId: string }, { caller }: { caller: { workspaceId: string } }) => {
      if (this.failingRenewals.has(holdId)) throw new Error(`deadline exceeded renewing ${holdId}`);
      this.renewals.push({ holdId, workspaceId: caller.workspaceId });
      return { renewed: this.holds.has(holdId), expiresAtMs: this.holds.has(holdId) ? 1 : 0 };
    },
    getBalance: async () => ({ account: this.account() }),
  } as unknown as BillingClient;

  private reply(holdId: string, held: number, capped = false) {
    return {
      holdId,
      account: this.account(),
      held: { millicredits: held },
      capRefusalJson: Buffer.alloc(0),
      ...(capped && {
        capRefusal: { reason: CAP_BODY.reason, capScope: CAP_BODY.cap_scope, detail: CAP_BODY.detail },
      }),
    };
  }

  private account() {
    const reserved = [...this.holds.values()].reduce((sum, held) => sum + held, 0);
    return {
      balance: { millicredits: this.available + reserved },
      reserved: { millicredits: reserved },
      available: { millicredits: this.available },
    };
  }
}

const CAP_BODY = {
  error: 'spending_cap_reached',
  reason: 'spending_cap_reached',
  cap_scope: 'workspace',
  detail: 'This call would take the workspace past its spending cap of 5 credits over 30 days.',
};
