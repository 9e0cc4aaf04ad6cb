import type { Collection, Document, DocumentStore } from '@rde/platform';
import type { Page } from '../domain/workflow';
import type { ItemResult, RunMode, RunRecord, RunStatus, StepError, StepState, StepStatus } from '../domain/run';

interface ItemDocument {
  /** As JSON text: vendor answers may have `$` or dotted keys a document store refuses as field names. */
  output: string;
  charged: number;
  would_charge: number;
}

interface StepDocument {
  id: string;
  uses: string;
  status: StepStatus;
  started_at?: number;
  ended_at?: number;
  items: ItemDocument[];
  output?: string;
  error?: StepError;
  continued?: boolean;
}

interface RunDocument extends Document {
  workspace_id: string;
  workflow_id: string;
  workflow_name: string;
  version: number;
  mode: RunMode;
  source: string;
  status: RunStatus;
  input: string;
  steps: StepDocument[];
  cancel_requested: boolean;
  /** ms since the epoch, as every time here. */
  created_at: number;
  started_at?: number;
  ended_at?: number;
  error?: StepError;
  /** The definition's `output` resolved at the end, as JSON text. */
  output?: string;
  /** The replica working the run and until when its claim holds unrenewed. */
  owner?: string;
  lease_until?: number;
}

/**
 * Workflow runs (decision 0074), one document each: the steps' states are written whole after
 * every step item, always guarded by the claim (`owner`, status running), so a replica that lost
 * the run to another after a pause cannot overwrite what the new owner wrote.
 */
/** Stored; a cancel to honour; or the run was taken by another replica. */
export type StepBegun = 'begun' | 'cancel_requested' | 'lost';

export class WorkflowRunsRepository {
  private constructor(private readonly runs: Collection<RunDocument>) {}

  static async open(store: DocumentStore): Promise<WorkflowRunsRepository> {
    const runs = store.collection<RunDocument>('workflow_runs');
    await runs.createIndex({ keys: { workspace_id: 1, created_at: -1 } });
    await runs.createIndex({ keys: { workspace_id: 1, workflow_id: 1, created_at: -1 } });
    await runs.createIndex({ keys: { status: 1, lease_until: 1 } });
    return new WorkflowRunsRepository(runs);
  }

  async insert(run: RunRecord): Promise<void> {
    await this.runs.insertOne(toDocument(run));
  }

  async get(id: string): Promise<RunRecord | null> {
    const doc = await this.runs.findOne({ _id: id });
    return doc && toRecord(doc);
  }

  /** A run of this workspace (and of this workflow when one is named); another's is as absent as an unknown one. */
  async find(workspaceId: string, workflowId: string, id: string): Promise<RunRecord | null> {
    const doc = await this.runs.findOne({ _id: id, workspace_id: workspaceId, workflow_id: workflowId });
    return doc && toRecord(doc);
  }

  /** Newest first: the workspace's runs, or one workflow's. */
  async list(workspaceId: string, workflowId: string, page: Page): Promise<{ runs: RunRecord[]; total: number }> {
    const filter = { workspace_id: workspaceId, ...(workflowId && { workflow_id: workflowId }) };
    const [docs, total] = await Promise.all([
      this.runs.find(filter, { sort: { created_at: -1, _id: -1 }, skip: page.offset, limit: page.limit }),
      this.runs.countDocuments(filter),
    ]);
    return { runs: docs.map(toRecord), total };
  }

  /** Takes a queued run, or a running one whose owner stopped renewing its claim; null when neither. */
  async claim(id: string, owner: string, now: number, leaseMs: number): Promise<RunRecord | null> {
    const lease = { owner, lease_until: now + leaseMs };
    const queued = await this.runs.findOneAndUpdate(
      { _id: id, status: 'queued' },
      { $set: { ...lease, status: 'running', started_at: now } },
    );
    const doc =
      queued ??
      (await this.runs.findOneAndUpdate({ _id: id, status: 'running', lease_until: { $lt: now } }, { $set: lease }));
    return doc && toRecord(doc);
  }

  async renew(id: string, owner: string, until: number): Promise<boolean> {
    const { matched } = await this.runs.updateOne(
      { _id: id, owner, status: 'running' },
      { $set: { lease_until: until } },
    );
    return matched === 1;
  }

  /** Stores the steps as they are now; false when this replica no longer holds the run. */
  async saveSteps(id: string, owner: string, steps: readonly StepState[]): Promise<boolean> {
    const { matched } = await this.runs.updateOne(
      { _id: id, owner, status: 'running' },
      { $set: { steps: steps.map(toStepDocument) } },
    );
    return matched === 1;
  }

  /** Stores the steps as a step begins, unless a cancel was asked (then writes nothing). */
  async beginStep(id: string, owner: string, steps: readonly StepState[]): Promise<StepBegun> {
    const held = { _id: id, owner, status: 'running' };
    const { matched } = await this.runs.updateOne(
      { ...held, cancel_requested: { $ne: true } },
      { $set: { steps: steps.map(toStepDocument) } },
    );
    if (matched === 1) return 'begun';
    return (await this.runs.findOne(held)) ? 'cancel_requested' : 'lost';
  }

  async finish(
    id: string,
    owner: string,
    end: Pick<RunRecord, 'status' | 'error' | 'steps' | 'endedAt' | 'output'>,
  ): Promise<boolean> {
    const { matched } = await this.runs.updateOne(
      { _id: id, owner, status: 'running' },
      {
        $set: {
          status: end.status,
          steps: end.steps.map(toStepDocument),
          ended_at: end.endedAt,
          ...(end.error && { error: end.error }),
          ...(end.output !== undefined && { output: JSON.stringify(end.output) }),
        },
      },
    );
    return matched === 1;
  }

  /** A queued run ends cancelled at once; a running one is marked for its worker to stop between steps. */
  async cancel(workspaceId: string, workflowId: string, id: string, now: number): Promise<RunRecord | null> {
    const mine = { _id: id, workspace_id: workspaceId, workflow_id: workflowId };
    const queued = await this.runs.findOne({ ...mine, status: 'queued' });
    if (queued) {
      const steps = queued.steps.map((step) => ({ ...step, status: 'cancelled' as const }));
      await this.runs.updateOne(
        { ...mine, status: 'queued' },
        { $set: { status: 'cancelled', cancel_requested: true, steps, ended_at: now } },
      );
    } else {
      await this.runs.updateOne({ ...mine, status: 'running' }, { $set: { cancel_requested: true } });
    }
    return this.find(workspaceId, workflowId, id);
  }

  /** Runs nobody is working: running ones whose claim lapsed, queued ones whose message went missing. */
  async stranded(now: number, queuedBefore: number, limit: number): Promise<string[]> {
    const [lapsed, waiting] = await Promise.all([
      this.runs.find({ status: 'running', lease_until: { $lt: now } }, { limit }),
      this.runs.find({ status: 'queued', created_at: { $lt: queuedBefore } }, { limit }),
    ]);
    return [...lapsed, ...waiting].map((doc) => doc._id);
  }
}

function toDocument(run: RunRecord): RunDocument {
  return {
    _id: run.id,
    workspace_id: run.workspaceId,
    workflow_id: run.workflowId,
    workflow_name: run.workflowName,
    version: run.version,
    mode: run.mode,
    source: run.source,
    status: run.status,
    input: JSON.stringify(run.input),
    steps: run.steps.map(toStepDocument),
    cancel_requested: run.cancelRequested,
    created_at: run.createdAt,
  };
}

function toStepDocument(step: StepState): StepDocument {
  return {
    id: step.id,
    uses: step.uses,
    status: step.status,
    ...(step.startedAt !== undefined && { started_at: step.startedAt }),
    ...(step.endedAt !== undefined && { ended_at: step.endedAt }),
    items: step.items.map((item) => ({
      output: JSON.stringify(item.output ?? null),
      charged: item.chargedMillicredits,
      would_charge: item.wouldChargeMillicredits,
    })),
    ...(step.output !== undefined && { output: JSON.stringify(step.output) }),
    ...(step.error && { error: step.error }),
    ...(step.continued && { continued: true }),
  };
}

function toRecord(doc: RunDocument): RunRecord {
  return {
    id: doc._id,
    workspaceId: doc.workspace_id,
    workflowId: doc.workflow_id,
    workflowName: doc.workflow_name,
    version: doc.version,
    mode: doc.mode,
    source: doc.source,
    status: doc.status,
    input: JSON.parse(doc.input) as Record<string, unknown>,
    steps: doc.steps.map(toStep),
    cancelRequested: doc.cancel_requested,
    createdAt: doc.created_at,
    ...(doc.started_at !== undefined && { startedAt: doc.started_at }),
    ...(doc.ended_at !== undefined && { endedAt: doc.ended_at }),
    ...(doc.error && { error: doc.error }),
    ...(doc.output !== undefined && { output: JSON.parse(doc.output) as unknown }),
  };
}

function toStep(doc: StepDocument): StepState {
  return {
    id: doc.id,
    uses: doc.uses,
    status: doc.status,
    ...(doc.started_at !== undefined && { startedAt: doc.started_at }),
    ...(doc.ended_at !== undefined && { endedAt: doc.ended_at }),
    items: doc.items.map((item): ItemResult => ({
      output: JSON.parse(item.output) as unknown,
      chargedMillicredits: item.charged,
      wouldChargeMillicredits: item.would_charge,
    })),
    ...(doc.output !== undefined && { output: JSON.parse(doc.output) as unknown }),
    ...(doc.error && { error: doc.error }),
    ...(doc.continued && { continued: true }),
  };
}
