import { setTimeout as sleep } from 'node:timers/promises';
import type { Bus, DeliveredMessage, Logger, Subscription } from '@rde/platform';
import { billingEvents, topics } from '@rde/proto';
import { isMillicredits } from '../domain/credits';
import { isHoldId } from '../domain/holds';
import type { Charge, Settlement } from '../domain/ledger';
import { settlementLag } from '../store/hold-metrics';
import type { Settlements } from '../app/settlements';

export const SETTLEMENTS_TOPIC = topics.SETTLEMENTS;
export const CONSUMER_GROUP = 'billing';

export interface SettlementConsumerOptions {
  /** Fault injection: wait this long after applying, before the offset is committed. */
  pauseAfterApplyMs: number;
}

/**
 * Applies what each fetch delivered as one batch (Settlements) and resolves only then, so the bus
 * commits the offsets after the work is done; a crash before that replays the batch, which then
 * finds its work done.
 */
export class SettlementConsumer {
  private subscription?: Subscription;

  constructor(
    private readonly bus: Bus,
    private readonly settlements: Settlements,
    private readonly logger: Logger,
    private readonly options: SettlementConsumerOptions,
  ) {}

  async start(): Promise<void> {
    this.subscription = await this.bus.subscribeBatches(
      { group: CONSUMER_GROUP, topic: SETTLEMENTS_TOPIC },
      (messages) => this.handle(messages),
    );
  }

  async stop(): Promise<void> {
    await this.subscription?.stop();
  }

  private async handle(messages: DeliveredMessage[]): Promise<void> {
    // A message that can never be applied is logged and skipped: retrying it would stall the partition.
    const received = messages.flatMap((message) => {
      const settlement = this.decode(message);
      return settlement ? [{ message, settlement }] : [];
    });
    await this.settlements.apply(received.map(({ settlement }) => settlement));
    const now = Date.now();
    for (const { settlement } of received) {
      if (settlement.createdAtMs > 0) settlementLag.observe((now - settlement.createdAtMs) / 1000);
    }
    if (this.options.pauseAfterApplyMs > 0) await this.pauseAfterApply(received);
  }

  /** The fault window: which message (partition, offset) each settlement came in, then the pause. */
  private async pauseAfterApply(received: { message: DeliveredMessage; settlement: Settlement }[]): Promise<void> {
    for (const { message, settlement } of received) {
      this.logger.warn(
        {
          settlement: settlement.id,
          runId: settlement.runId,
          partition: message.partition,
          offset: message.offset,
          pauseMs: this.options.pauseAfterApplyMs,
        },
        'fault injection: settlement applied, pausing before the offset is committed',
      );
    }
    await sleep(this.options.pauseAfterApplyMs);
  }

  private decode(message: DeliveredMessage): (Settlement & { createdAtMs: number }) | undefined {
    let decoded: billingEvents.Settlement;
    try {
      decoded = billingEvents.Settlement.decode(message.value);
    } catch (error) {
      this.logger.error(
        { err: error, offset: message.offset, partition: message.partition },
        'undecodable settlement skipped',
      );
      return undefined;
    }
    const context = { settlement: decoded.settlementId, workspaceId: decoded.workspaceId };
    if (!decoded.workspaceId) {
      this.logger.error(context, 'settlement without a workspace skipped');
      return undefined;
    }
    let holdId = decoded.holdId;
    if (holdId && !isHoldId(holdId)) {
      this.logger.error(
        { ...context, holdId },
        'settlement names a malformed hold id; its charges apply without a hold',
      );
      holdId = '';
    }
    const charges: Charge[] = [];
    for (const charge of decoded.charges) {
      const amount = charge.amount?.millicredits ?? 0;
      if (!charge.chargeId || !isMillicredits(amount)) {
        this.logger.error({ ...context, chargeId: charge.chargeId, amount }, 'malformed charge skipped');
      } else if (amount > 0) {
        // A zero charge (a miss, a skip) bills nothing and writes nothing.
        charges.push({
          id: charge.chargeId,
          amount,
          description: charge.description,
          userId: charge.userId,
          sessionId: charge.sessionId,
          workflowRunId: charge.workflowRunId,
        });
      }
    }
    return {
      id: decoded.settlementId,
      workspaceId: decoded.workspaceId,
      holdId,
      runId: decoded.runId,
      charges,
      final: decoded.final,
      createdAtMs: decoded.createdAtMs,
    };
  }
}
