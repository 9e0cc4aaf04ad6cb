import {
  DuplicateKeyError,
  indexedCollection,
  type Collection,
  type Document,
  type DocumentStore,
  type Filter,
} from '@rde/platform';
import type { DatasetRecord, Page } from '../domain/dataset';

/**
 * `writing` until every row is stored, then `ready`; `deleting` while its rows are removed. Reads
 * see only `ready`, so a create or delete cut short by a crash never shows a partial dataset.
 */
type Status = 'writing' | 'ready' | 'deleting';

interface DatasetDocument extends Document {
  workspace_id: string;
  name: string;
  columns: string[];
  row_count: number;
  session_id: string;
  created_by: string;
  created_at: Date;
  source: string;
  run_id: string;
  enrich_status: string;
  status: Status;
  bytes?: number;
  /** Set once the dataset is counted in its workspace's usage (store/usage.ts). */
  counted?: boolean;
  /** The append under way (a hash of its offset and rows) and until when it holds the dataset. */
  append_token?: string;
  append_until?: Date;
}

/** What an append finished adds to its dataset's metadata. */
export interface Appended {
  rowCount: number;
  columns: string[];
  bytes: number;
}

/** How long an append holds its dataset: far more than 10,000 rows take to write. */
const APPEND_LEASE_MS = 60_000;

/** What an id already names when a create finds it taken. */
export type Existing = { kind: 'ready' | 'writing'; record: DatasetRecord; counted: boolean } | { kind: 'unavailable' };

/** Dataset metadata, one document per dataset (`_id` = the `ds_` id). */
export class DatasetsRepository {
  private constructor(private readonly collection: Collection<DatasetDocument>) {}

  static async open(store: DocumentStore): Promise<DatasetsRepository> {
    return new DatasetsRepository(
      await indexedCollection<DatasetDocument>(store, 'datasets', [
        { keys: { workspace_id: 1, status: 1, created_at: -1 } },
        { keys: { workspace_id: 1, session_id: 1, status: 1, created_at: -1 } },
      ]),
    );
  }

  /** Claims the id as `writing`; when it is taken, says by what (a retry finishes what it finds). */
  async begin(record: DatasetRecord): Promise<Existing | undefined> {
    try {
      await this.collection.insertOne(toDocument(record, 'writing'));
      return undefined;
    } catch (error) {
      if (!(error instanceof DuplicateKeyError)) throw error;
    }
    const existing = await this.collection.findOne({ _id: record.id });
    if (existing?.workspace_id !== record.workspaceId || existing.status === 'deleting') return { kind: 'unavailable' };
    return { kind: existing.status, record: toRecord(existing), counted: existing.counted === true };
  }

  /** Records that the dataset is counted in its workspace's usage. */
  async markCounted(id: string): Promise<void> {
    await this.collection.updateOne({ _id: id }, { $set: { counted: true } });
  }

  /** Gives up a claim that never got its rows (its workspace had no room). */
  async abandon(id: string): Promise<void> {
    await this.collection.deleteOne({ _id: id, status: 'writing' });
  }

  async setEnrichStatus(id: string, enrichStatus: string): Promise<void> {
    await this.collection.updateOne({ _id: id, status: 'ready' }, { $set: { enrich_status: enrichStatus } });
  }

  /**
   * Sets the columns if they are still `seen`: parallel writers of one run each widen what the
   * last one left. False when another writer changed them first (read again and retry).
   */
  async widenColumns(id: string, seen: string[], columns: string[]): Promise<boolean> {
    const { matched } = await this.collection.updateOne(
      { _id: id, status: 'ready', columns: seen },
      { $set: { columns } },
    );
    return matched === 1;
  }

  /** Marks the dataset ready and, with `counted`, counted in its workspace's usage in the same write. */
  async markReady(id: string, counted = false): Promise<void> {
    await this.collection.updateOne(
      { _id: id, status: 'writing' },
      { $set: { status: 'ready', ...(counted && { counted: true }) } },
    );
  }

  /**
   * Takes the dataset for one append at `offset` until `until`: only while it holds exactly
   * `offset` rows and no other append holds it (one that lapsed, or this same append retried, may
   * be taken over). Answers the dataset as taken, or null.
   */
  async claimAppend(
    workspaceId: string,
    id: string,
    offset: number,
    token: string,
    now: Date,
  ): Promise<DatasetRecord | null> {
    const doc = await this.collection.findOneAndUpdate(
      {
        _id: id,
        workspace_id: workspaceId,
        status: 'ready',
        row_count: offset,
        $or: [{ append_until: { $exists: false } }, { append_until: { $lte: now } }, { append_token: token }],
      },
      { $set: { append_token: token, append_until: new Date(now.getTime() + APPEND_LEASE_MS) } },
    );
    return doc && toRecord(doc);
  }

  /** Ends the append that holds the dataset: its rows count from now on. False when it lost the hold. */
  async endAppend(id: string, offset: number, token: string, appended: Appended): Promise<boolean> {
    const { matched } = await this.collection.updateOne(
      { _id: id, status: 'ready', row_count: offset, append_token: token },
      {
        $set: { row_count: appended.rowCount, columns: appended.columns, append_until: new Date(0) },
        $inc: { bytes: appended.bytes },
      },
    );
    return matched === 1;
  }

  /** Lets the next append in at once (this one was refused). */
  async dropAppend(id: string, token: string): Promise<void> {
    await this.collection.updateOne({ _id: id, append_token: token }, { $set: { append_until: new Date(0) } });
  }

  /** A ready dataset of this workspace; another workspace's is as absent as an unknown one. */
  async find(workspaceId: string, id: string): Promise<DatasetRecord | null> {
    const doc = await this.collection.findOne({ _id: id, workspace_id: workspaceId, status: 'ready' });
    return doc && toRecord(doc);
  }

  /** Newest first; only one session's when `sessionId` is given. */
  async list(workspaceId: string, sessionId: string, page: Page): Promise<{ records: DatasetRecord[]; total: number }> {
    const filter: Filter = { workspace_id: workspaceId, status: 'ready', ...(sessionId && { session_id: sessionId }) };
    const [docs, total] = await Promise.all([
      this.collection.find(filter, { sort: { created_at: -1, _id: -1 }, skip: page.offset, limit: page.limit }),
      this.collection.countDocuments(filter),
    ]);
    return { records: docs.map(toRecord), total };
  }

  /**
   * Hides the dataset from reads before its rows go. A delete cut short stays `deleting`, and
   * deleting it again finishes the job.
   */
  async beginDelete(workspaceId: string, id: string): Promise<{ record: DatasetRecord; counted: boolean } | null> {
    const doc = await this.collection.findOneAndUpdate(
      { _id: id, workspace_id: workspaceId, status: { $in: ['ready', 'deleting'] } },
      { $set: { status: 'deleting' } },
    );
    return doc && { record: toRecord(doc), counted: doc.counted === true };
  }

  async remove(id: string): Promise<void> {
    await this.collection.deleteOne({ _id: id, status: 'deleting' });
  }
}

function toDocument(record: DatasetRecord, status: Status): DatasetDocument {
  return {
    _id: record.id,
    workspace_id: record.workspaceId,
    name: record.name,
    columns: record.columns,
    row_count: record.rowCount,
    bytes: record.bytes,
    session_id: record.sessionId,
    created_by: record.createdBy,
    created_at: new Date(record.createdAt),
    source: record.source,
    run_id: record.runId,
    enrich_status: record.enrichStatus,
    status,
  };
}

function toRecord(doc: DatasetDocument): DatasetRecord {
  return {
    id: doc._id,
    workspaceId: doc.workspace_id,
    name: doc.name,
    columns: doc.columns,
    rowCount: doc.row_count,
    bytes: doc.bytes ?? 0,
    sessionId: doc.session_id,
    createdBy: doc.created_by,
    createdAt: doc.created_at.getTime(),
    source: doc.source,
    runId: doc.run_id,
    enrichStatus: doc.enrich_status,
  };
}
