import { billingEvents, common, topics } from '@rde/proto';
import type { Clock } from '../clock';
import type { Logger } from '../logger';
import type { OutboxEvent, WithOutbox } from '../outbox';
import type { Collection } from '../ports/document-store';
import { PeriodicPass } from '../periodic-pass';
import type { CreditHolds } from './holds';

export interface WaitingSettlementsOptions {
  /** The service's collections whose documents carry an `_outbox` (the outbox relay's). */
  readonly collections: readonly Collection[];
  readonly holds: CreditHolds;
  readonly clock: Clock;
  readonly logger: Logger;
  /** How often to look. Default: an eighth of the hold TTL, so a hold is renewed several times before it could lapse. */
  readonly intervalMs?: number;
}

/**
 * How long a settlement waits before its hold is renewed: longer than a healthy relay takes to
 * publish it (milliseconds), so only settlements held up by an outage cost a renewal.
 */
const WAITING_AFTER_MS = 1_000;
/** Renewals in flight at once: a backlog of waiting settlements is renewed within one look. */
const RENEWALS_AT_ONCE = 8;

/** A hold a waiting settlement will settle: whose, and which. */
interface WaitingHold {
  readonly workspaceId: string;
  readonly holdId: string;
}

/**
 * Keeps alive the hold of every settlement that waits in an outbox (decision 0086). A settlement
 * written while Kafka is down waits there; without this, billing's reaper would release its hold
 * when it lapses, the credit would look free (and `settled` true) while the charges are still on
 * their way, and calls let through meanwhile would overspend the workspace once they land. Any
 * replica may renew (a renewal only moves expiry later); a hold already gone stays gone.
 */
export class WaitingSettlements {
  private readonly timer: PeriodicPass;

  constructor(private readonly options: WaitingSettlementsOptions) {
    this.timer = new PeriodicPass(
      this.intervalMs,
      () => this.renewOnce(),
      (error) => options.logger.error({ err: error }, 'could not renew the holds of waiting settlements; retrying'),
    );
  }

  private get intervalMs(): number {
    return this.options.intervalMs ?? Math.max(1, Math.floor(this.options.holds.ttlMs / 8));
  }

  start(): void {
    this.timer.start();
  }

  stop(): void {
    this.timer.stop();
  }

  /**
   * One look: renews the hold of each settlement that has waited a moment; returns how many were
   * renewed. A renewal that fails is logged and tried again at the next look, the others still go.
   */
  async renewOnce(): Promise<number> {
    const waitingSince = this.options.clock.now() - Math.min(WAITING_AFTER_MS, this.intervalMs);
    const holds = new Map<string, WaitingHold>();
    for (const collection of this.options.collections) {
      for await (const doc of collection.stream({ '_outbox.0': { $exists: true } }) as AsyncIterable<WithOutbox>) {
        for (const event of doc._outbox ?? []) {
          const hold = event.topic === topics.SETTLEMENTS && waitingHoldOf(event, waitingSince);
          if (hold) holds.set(`${hold.workspaceId}/${hold.holdId}`, hold);
        }
      }
    }
    if (holds.size === 0) return 0;
    const waiting = [...holds.values()];
    let renewed = 0;
    let failed = 0;
    const renewNext = async (): Promise<void> => {
      for (let hold = waiting.pop(); hold; hold = waiting.pop()) {
        try {
          if (await this.options.holds.renew(hold.holdId, common.Caller.fromPartial({ workspaceId: hold.workspaceId })))
            renewed++;
        } catch (error) {
          failed++;
          this.options.logger.warn({ err: error, holdId: hold.holdId }, 'could not renew a waiting hold; next look');
        }
      }
    };
    await Promise.all(Array.from({ length: RENEWALS_AT_ONCE }, renewNext));
    this.options.logger.warn(
      { waiting: holds.size, renewed, failed },
      'settlements wait in the outbox; their holds renewed',
    );
    return renewed;
  }
}

/** The hold a settlement event settles, when it has waited since before `waitingSince`. */
function waitingHoldOf(event: OutboxEvent, waitingSince: number): WaitingHold | undefined {
  if (new Date(event.createdAt).getTime() > waitingSince) return undefined;
  const settlement = billingEvents.Settlement.decode(Buffer.from(event.value, 'base64'));
  return { workspaceId: settlement.workspaceId, holdId: settlement.holdId };
}
