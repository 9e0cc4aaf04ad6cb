import type { Bus, DeliveredMessage, Logger, Subscription } from '@rde/platform';
import { topics, workflowEvents } from '@rde/proto';

/** Every workflow replica joins one consumer group: each queued run goes to one of them. */
const CONSUMER_GROUP = 'workflow';
const SUBSCRIBE_RETRY_MS = 1_000;

/** The topic `workflow.runs` (decision 0074), keyed by workspace so one workspace's runs stay in order. */
export class RunQueue {
  private subscription?: Subscription;
  private stopped = false;

  constructor(
    private readonly bus: Bus,
    private readonly logger: Logger,
  ) {}

  async publish(runId: string, workspaceId: string): Promise<void> {
    const value = Buffer.from(workflowEvents.WorkflowRunQueued.encode({ runId, workspaceId }).finish());
    await this.bus.publish(topics.WORKFLOW_RUNS, [{ key: workspaceId, value }]);
  }

  /** Joins the group, trying again while the broker refuses (the sweep works runs meanwhile). */
  async start(work: (runId: string) => Promise<void>): Promise<void> {
    while (!this.stopped && !this.subscription) {
      try {
        const subscription = await this.bus.subscribe(
          { group: CONSUMER_GROUP, topic: topics.WORKFLOW_RUNS },
          (message) => this.take(message, work),
        );
        if (this.stopped) await subscription.stop();
        else this.subscription = subscription;
      } catch (error) {
        this.logger.warn({ err: error }, 'workflow run subscription failed; trying again');
        await new Promise((resolve) => setTimeout(resolve, SUBSCRIBE_RETRY_MS).unref());
      }
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.subscription?.stop();
  }

  private async take(message: DeliveredMessage, work: (runId: string) => Promise<void>): Promise<void> {
    let queued: workflowEvents.WorkflowRunQueued;
    try {
      queued = workflowEvents.WorkflowRunQueued.decode(message.value);
    } catch (error) {
      // A message that can never be read would stall the partition.
      this.logger.error({ err: error, offset: message.offset }, 'undecodable workflow run message skipped');
      return;
    }
    await work(queued.runId);
  }
}
