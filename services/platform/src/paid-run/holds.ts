import { accountOf, type Account, type BillingClient, type Payer } from './payer';
import { capRefusalOf, holdRefusalOf, type CapRefusal, type HoldRefusal } from './refusal';

/** A hold to open: its id is the run's, so a retried Reserve holds once. */
export interface HoldRequest {
  readonly runId: string;
  readonly payer: Payer;
  /** Millicredits: the run's worst case. */
  readonly amount: number;
  /** The hold's ledger line. */
  readonly description: string;
  /** Work priced per unit (a row): a member or workspace cap may trim the hold to the units that fit. */
  readonly unit?: number;
}

/** An open hold: what it holds, the account right after it, and the cap that trimmed it, if one did. */
export interface Hold {
  readonly runId: string;
  readonly held: number;
  readonly account: Account;
  readonly cappedBy?: CapRefusal;
}

export type HoldOutcome = Hold | { readonly refused: HoldRefusal };

/** Billing's holds, as a paid run opens, renews and re-opens them; refusals come back typed. */
export class CreditHolds {
  constructor(
    private readonly billing: BillingClient,
    /** How long a hold lives unrenewed before billing's reaper may release it. */
    readonly ttlMs: number,
  ) {}

  /** Reserves `amount` under the run's id; billing's 402 is the refusal, any other failure is thrown. */
  async reserve(request: HoldRequest): Promise<HoldOutcome> {
    try {
      const reply = await this.billing.reserve(
        {
          holdId: request.runId,
          runId: request.runId,
          amount: { millicredits: request.amount },
          ttlMs: this.ttlMs,
          description: request.description,
          ...(request.unit !== undefined && { unit: { millicredits: request.unit } }),
        },
        { caller: request.payer },
      );
      const cappedBy = capRefusalOf(reply.capRefusal);
      return {
        runId: request.runId,
        held: reply.held?.millicredits ?? request.amount,
        account: accountOf(reply.account),
        ...(cappedBy && { cappedBy }),
      };
    } catch (error) {
      const refused = holdRefusalOf(error);
      if (!refused) throw error;
      return { refused };
    }
  }

  /**
   * Reserves `amount`, or, when the balance cannot cover it, what the balance does cover (whole
   * units when `unit` is set), so the run stops where the credit ends instead of not starting.
   */
  async reserveUpTo(request: HoldRequest): Promise<HoldOutcome> {
    const outcome = await this.reserve(request);
    if (!('refused' in outcome) || outcome.refused.reason !== 'insufficient_credits') return outcome;
    const unit = request.unit || 1;
    const fits = Math.floor(Math.min(outcome.refused.available, request.amount) / unit) * unit;
    return fits > 0 ? this.reserve({ ...request, amount: fits }) : outcome;
  }

  /** Moves the hold's expiry later; false when no open hold of the run stands (settled, released or lapsed). */
  async renew(runId: string, payer: Payer): Promise<boolean> {
    const { renewed } = await this.billing.renewHold({ holdId: runId, ttlMs: this.ttlMs }, { caller: payer });
    return renewed;
  }

  /** The payer's workspace account now. */
  async account(payer: Payer): Promise<Account> {
    const { account } = await this.billing.getBalance({ recent: 0 }, { caller: payer });
    return accountOf(account);
  }
}

/** The hold, or billing's refusal thrown as it came. */
export function heldOrThrow(outcome: HoldOutcome): Hold {
  if ('refused' in outcome) throw outcome.refused.error;
  return outcome;
}
