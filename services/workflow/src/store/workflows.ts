import { DuplicateKeyError, type Collection, type Document, type DocumentStore } from '@rde/platform';
import type { Definition, TriggerType } from '../domain/definition';
import type { Page, VersionRecord, WorkflowSummary } from '../domain/workflow';

interface HeadDocument extends Document {
  workspace_id: string;
  name: string;
  /** The name while the workflow lives, `deleted:<id>` after: the unique index frees a deleted name. */
  name_slot: string;
  description: string;
  trigger_type: TriggerType;
  enabled: boolean;
  latest_version: number;
  latest_hash: string;
  created_at: Date;
  updated_at: Date;
  deleted: boolean;
}

interface VersionDocument extends Document {
  workflow_id: string;
  version: number;
  /** As JSON text: a user's input schema has `$` keys a document store may refuse as field names. */
  definition: string;
  hash: string;
  created_at: Date;
}

/** The versions of a head that may be shown: at least one applied, not deleted. */
const SHOWN = { deleted: false, latest_version: { $gte: 1 } };

/**
 * Workflows: one head per workflow (name, state, latest version) and one document per version,
 * `_id` `<workflow id>:<version>`. A version is written before its head moves to it, and the
 * head moves only from the version it was read at: two replicas applying at once cannot both make
 * version N+1 (the version's `_id` is taken once) nor lose one (decision 0072).
 */
export class WorkflowsRepository {
  private constructor(
    private readonly heads: Collection<HeadDocument>,
    private readonly versions: Collection<VersionDocument>,
  ) {}

  static async open(store: DocumentStore): Promise<WorkflowsRepository> {
    const heads = store.collection<HeadDocument>('workflows');
    await heads.createIndex({ keys: { workspace_id: 1, name_slot: 1 }, unique: true });
    await heads.createIndex({ keys: { workspace_id: 1, deleted: 1, updated_at: -1 } });
    return new WorkflowsRepository(heads, store.collection<VersionDocument>('workflow_versions'));
  }

  /** Takes the name for a new workflow at version 0; when it is taken, answers the head that holds it. */
  async claimName(head: WorkflowSummary): Promise<WorkflowSummary> {
    try {
      await this.heads.insertOne(toHeadDocument(head));
      return head;
    } catch (error) {
      if (!(error instanceof DuplicateKeyError)) throw error;
    }
    const existing = await this.heads.findOne({ workspace_id: head.workspaceId, name_slot: head.name });
    if (!existing) throw new Error(`workflow name ${head.name} was taken and then freed; apply again`);
    return toSummary(existing);
  }

  /** A shown workflow of this workspace; another workspace's is as absent as an unknown one. */
  async find(workspaceId: string, id: string): Promise<WorkflowSummary | null> {
    const doc = await this.heads.findOne({ _id: id, workspace_id: workspaceId, ...SHOWN });
    return doc && toSummary(doc);
  }

  async findByName(workspaceId: string, name: string): Promise<WorkflowSummary | null> {
    const doc = await this.heads.findOne({ workspace_id: workspaceId, name_slot: name, ...SHOWN });
    return doc && toSummary(doc);
  }

  /** Any workflow that is not deleted, shown or still being created (version 0). */
  async head(id: string): Promise<WorkflowSummary | null> {
    const doc = await this.heads.findOne({ _id: id, deleted: false });
    return doc && toSummary(doc);
  }

  async findVersion(workflowId: string, version: number): Promise<VersionRecord | null> {
    const doc = await this.versions.findOne({ _id: versionId(workflowId, version) });
    return doc && toVersion(doc);
  }

  /** Writes a version; false when that number is already taken (another apply got there first). */
  async insertVersion(version: VersionRecord): Promise<boolean> {
    try {
      await this.versions.insertOne(toVersionDocument(version));
      return true;
    } catch (error) {
      if (error instanceof DuplicateKeyError) return false;
      throw error;
    }
  }

  /** Moves the head from `from` to `version`; false when it is no longer at `from`. */
  async advance(workflowId: string, from: number, version: VersionRecord): Promise<boolean> {
    const { matched } = await this.heads.updateOne(
      { _id: workflowId, latest_version: from, deleted: false },
      {
        $set: {
          latest_version: version.version,
          latest_hash: version.hash,
          description: version.definition.description ?? '',
          trigger_type: version.definition.trigger.type,
          updated_at: new Date(version.createdAt),
        },
      },
    );
    return matched === 1;
  }

  /** Most recently changed first. */
  async list(workspaceId: string, page: Page): Promise<{ workflows: WorkflowSummary[]; total: number }> {
    const filter = { workspace_id: workspaceId, ...SHOWN };
    const [docs, total] = await Promise.all([
      this.heads.find(filter, { sort: { updated_at: -1, _id: -1 }, skip: page.offset, limit: page.limit }),
      this.heads.countDocuments(filter),
    ]);
    return { workflows: docs.map(toSummary), total };
  }

  async setEnabled(workspaceId: string, id: string, enabled: boolean, at: Date): Promise<WorkflowSummary | null> {
    const doc = await this.heads.findOneAndUpdate(
      { _id: id, workspace_id: workspaceId, ...SHOWN },
      { $set: { enabled, updated_at: at } },
    );
    return doc && toSummary(doc);
  }

  /** Hides the workflow from every read and frees its name; its versions stay for its runs' history. */
  async delete(workspaceId: string, id: string, at: Date): Promise<boolean> {
    const { matched } = await this.heads.updateOne(
      { _id: id, workspace_id: workspaceId, ...SHOWN },
      { $set: { deleted: true, enabled: false, name_slot: `deleted:${id}`, updated_at: at } },
    );
    return matched === 1;
  }
}

function versionId(workflowId: string, version: number): string {
  return `${workflowId}:${version}`;
}

function toHeadDocument(head: WorkflowSummary): HeadDocument {
  return {
    _id: head.id,
    workspace_id: head.workspaceId,
    name: head.name,
    name_slot: head.name,
    description: head.description,
    trigger_type: head.triggerType,
    enabled: head.enabled,
    latest_version: head.latestVersion,
    latest_hash: head.latestHash,
    created_at: new Date(head.createdAt),
    updated_at: new Date(head.updatedAt),
    deleted: false,
  };
}

function toSummary(doc: HeadDocument): WorkflowSummary {
  return {
    id: doc._id,
    workspaceId: doc.workspace_id,
    name: doc.name,
    description: doc.description,
    triggerType: doc.trigger_type,
    enabled: doc.enabled,
    latestVersion: doc.latest_version,
    latestHash: doc.latest_hash,
    createdAt: doc.created_at.getTime(),
    updatedAt: doc.updated_at.getTime(),
  };
}

function toVersionDocument(version: VersionRecord): VersionDocument {
  return {
    _id: versionId(version.workflowId, version.version),
    workflow_id: version.workflowId,
    version: version.version,
    definition: JSON.stringify(version.definition),
    hash: version.hash,
    created_at: new Date(version.createdAt),
  };
}

function toVersion(doc: VersionDocument): VersionRecord {
  return {
    workflowId: doc.workflow_id,
    version: doc.version,
    definition: JSON.parse(doc.definition) as Definition,
    hash: doc.hash,
    createdAt: doc.created_at.getTime(),
  };
}
