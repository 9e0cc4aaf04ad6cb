import type { Collection, Document, DocumentStore } from '@rde/platform';

interface WebhookDocument extends Document {
  /** `_id` is the SHA-256 (hex) of the webhook id: the id itself is never stored. */
  workflow_id: string;
  workspace_id: string;
  created_at: number;
}

export interface WebhookRecord {
  readonly hash: string;
  readonly workflowId: string;
  readonly workspaceId: string;
}

/** Inbound webhook ids by their hash (decision 0075): one per webhook workflow, replaced on rotate. */
export class WebhooksRepository {
  private constructor(private readonly webhooks: Collection<WebhookDocument>) {}

  static async open(store: DocumentStore): Promise<WebhooksRepository> {
    const webhooks = store.collection<WebhookDocument>('workflow_webhooks');
    await webhooks.createIndex({ keys: { workflow_id: 1 } });
    return new WebhooksRepository(webhooks);
  }

  async find(hash: string): Promise<WebhookRecord | null> {
    const doc = await this.webhooks.findOne({ _id: hash });
    return doc && { hash: doc._id, workflowId: doc.workflow_id, workspaceId: doc.workspace_id };
  }

  async exists(workflowId: string): Promise<boolean> {
    return (await this.webhooks.countDocuments({ workflow_id: workflowId })) > 0;
  }

  /** Stores the new id's hash, then drops every older one of the workflow (the old URL stops at once). */
  async replace(record: WebhookRecord, now: number): Promise<void> {
    await this.webhooks.insertOne({
      _id: record.hash,
      workflow_id: record.workflowId,
      workspace_id: record.workspaceId,
      created_at: now,
    });
    await this.webhooks.deleteMany({ workflow_id: record.workflowId, _id: { $ne: record.hash } });
  }
}
