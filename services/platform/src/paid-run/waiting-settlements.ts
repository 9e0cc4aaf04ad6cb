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
  /** How often to look; a settlement waiting at least this long has its hold renewed. Default: a quarter of the hold TTL. */
  readonly intervalMs?: number;
}

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
    return this.options.intervalMs ?? Math.max(1, Math.floor(this.options.holds.ttlMs / 4));
  }

  start(): void {
    this.timer.start();
  }

  stop(): void {
    this.timer.stop();
  }

  /** One look: renews the hold of each settlement waiting at least an interval; returns how many holds were renewed. */
  async renewOnce(): Promise<number> {
    const waitingSince = this.options.clock.now() - this.intervalMs;
    const holds = new Map<string, WaitingHold>();
    for (const collection of this.options.collections) {
      for await (const doc of collection.stream({ '_outbox.0': { $exists: true } }) as AsyncIterable<WithOutbox>) {
        for (const event of doc._outbox ?? []) {
          const hold = event.topic === topics.SETTLEMENTS && waitingHoldOf(event, waitingSince);
          if (hold) holds.set(`${hold.workspaceId}/${hold.holdId}`, hold);
        }
      }
    }
    let renewed = 0;
    for (const { workspaceId, holdId } of holds.values()) {
      if (await this.options.holds.renew(holdId, common.Caller.fromPartial({ workspaceId }))) renewed++;
    }
    if (holds.size > 0) {
      this.options.logger.warn({ waiting: holds.size, renewed }, 'settlements wait in the outbox; their holds renewed');
    }
    return renewed;
  }
}

/** The hold a settlement event settles, when it has waited since before `waitingSince`. */
function waitingHoldOf(event: OutboxEvent, waitingSince: number): WaitingHold | undefined {
  if (new Date(event.createdAt).getTime() > waitingSince) return undefined;
  const settlement = billingEvents.Settlement.decode(Buffer.from(event.value, 'base64'));
  return { workspaceId: settlement.workspaceId, holdId: settlement.holdId };
}
