import { errors, httpError, type Clock, type KeyValue } from '@rde/platform';
import { isObject } from '../domain/references';
import type { RunRecord } from '../domain/run';
import { isWebhookIdShape, newWebhookId, sameHash, webhookHashOf } from '../domain/webhook-id';
import type { WorkflowSummary } from '../domain/workflow';
import type { WebhooksRepository } from '../store/webhooks';
import type { WorkflowsRepository } from '../store/workflows';
import type { QueueRun } from './queue-run';

const WINDOW_MS = 60_000;
/** Unknown, rotated away and deleted: one answer, so the route tells nothing about what existed. */
const UNKNOWN = 'no such webhook: it was never issued, was rotated, or its workflow was deleted';

/**
 * Inbound webhooks (decision 0075): issuing an id when a workflow becomes a webhook one (shown
 * once), rotating it, and firing it — the id checked by its hash in constant time, a per-URL rate
 * limit counted in the key-value store (Redis in distributed mode: shared by every replica), the
 * body a JSON object, a disabled workflow refused; each refusal starts nothing.
 */
export class Webhooks {
  constructor(
    private readonly webhooks: WebhooksRepository,
    private readonly workflows: WorkflowsRepository,
    private readonly queue: QueueRun,
    private readonly counters: KeyValue,
    private readonly clock: Clock,
    private readonly perMinute: number,
  ) {}

  /** The new id when this workflow is a webhook one without an id yet (its first such apply), else empty. */
  async issueIfMissing(workflow: WorkflowSummary): Promise<string> {
    if (workflow.triggerType !== 'webhook' || (await this.webhooks.exists(workflow.id))) return '';
    return this.issue(workflow);
  }

  async rotate(workspaceId: string, workflowId: string): Promise<{ workflow: WorkflowSummary; webhookId: string }> {
    const workflow = await this.workflows.find(workspaceId, workflowId);
    if (!workflow) throw errors.notFound(`no workflow ${workflowId} in this workspace`);
    if (workflow.triggerType !== 'webhook') {
      throw errors.conflict({
        detail: `workflow ${workflow.name} has a ${workflow.triggerType} trigger; apply it with trigger {"type": "webhook"} first`,
        error: 'not_a_webhook_workflow',
      });
    }
    return { workflow, webhookId: await this.issue(workflow) };
  }

  async fire(webhookId: string, body: unknown): Promise<RunRecord> {
    const hash = webhookHashOf(webhookId);
    const found = isWebhookIdShape(webhookId) ? await this.webhooks.find(hash) : null;
    if (!found || !sameHash(found.hash, hash)) throw errors.notFound(UNKNOWN);
    await this.limit(hash);
    const workflow = await this.workflows.find(found.workspaceId, found.workflowId);
    if (!workflow) throw errors.notFound(UNKNOWN);
    if (workflow.triggerType !== 'webhook') {
      throw errors.conflict({
        detail: `workflow ${workflow.name} is no longer triggered by webhook`,
        error: 'not_a_webhook_workflow',
      });
    }
    if (!isObject(body)) {
      throw errors.validation([
        { loc: ['body'], msg: 'the body must be a JSON object: it becomes the input', type: 'dict_type' },
      ]);
    }
    return this.queue.queueRun(workflow, { input: body, mode: 'live', source: 'webhook' });
  }

  private async issue(workflow: WorkflowSummary): Promise<string> {
    const webhookId = newWebhookId();
    const record = { hash: webhookHashOf(webhookId), workflowId: workflow.id, workspaceId: workflow.workspaceId };
    await this.webhooks.replace(record, this.clock.now());
    return webhookId;
  }

  /** A one-minute window per URL, opened by its first request: past the limit, 429 with `retry_after`. */
  private async limit(hash: string): Promise<void> {
    const key = `webhook:${hash}`;
    if ((await this.counters.increment(key, WINDOW_MS)) <= this.perMinute) return;
    const retryAfter = Math.max(1, Math.ceil(((await this.counters.ttl(key)) ?? WINDOW_MS) / 1000));
    throw httpError(429, {
      detail: `this webhook was called more than ${this.perMinute} times in a minute; try again in ${retryAfter} s`,
      error: 'rate_limited',
      retry_after: retryAfter,
    });
  }
}
