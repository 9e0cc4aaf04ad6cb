import { GroupConsumer, type Bus, type Logger } from '@rde/platform';
import { topics, workflowEvents } from '@rde/proto';

/** The topic `workflow.runs` (decision 0074), keyed by workspace so one workspace's runs stay in order. */
export class RunQueue {
  private readonly consumer: GroupConsumer<workflowEvents.WorkflowRunQueued>;

  constructor(
    private readonly bus: Bus,
    logger: Logger,
  ) {
    // Every workflow replica joins one consumer group: each queued run goes to one of them.
    this.consumer = new GroupConsumer(bus, logger, {
      group: 'workflow',
      topic: topics.WORKFLOW_RUNS,
      message: workflowEvents.WorkflowRunQueued,
      what: 'workflow run',
    });
  }

  async publish(runId: string, workspaceId: string): Promise<void> {
    const value = Buffer.from(workflowEvents.WorkflowRunQueued.encode({ runId, workspaceId }).finish());
    await this.bus.publish(topics.WORKFLOW_RUNS, [{ key: workspaceId, value }]);
  }

  /** Joins the group, trying again while the broker refuses (the sweep works runs meanwhile). */
  start(work: (runId: string) => Promise<void>): Promise<void> {
    return this.consumer.start((queued) => work(queued.runId));
  }

  stop(): Promise<void> {
    return this.consumer.stop();
  }
}
