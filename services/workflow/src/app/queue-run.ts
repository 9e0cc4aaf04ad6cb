import { DuplicateKeyError, errors, type Clock, type Logger } from '@rde/platform';
import type { InputCheck } from '../domain/input-check';
import { newRunId, pendingSteps, type RunMode, type RunRecord } from '../domain/run';
import type { WorkflowSummary } from '../domain/workflow';
import type { RunQueue } from '../events/run-queue';
import type { WorkflowRunsRepository } from '../store/runs';
import type { WorkflowsRepository } from '../store/workflows';

export interface RunOrder {
  readonly input: Record<string, unknown>;
  readonly mode: RunMode;
  readonly source: string;
  /** The run's id when its caller named the call (a repeat then finds this run); else a new one. */
  readonly runId?: string;
}

/**
 * Queues a run of a workflow's latest version (the run is pinned to it): the input checked against
 * that version's input schema (422, nothing written), the run written `queued`, then published for
 * any replica. A lost publish is found by the workers' sweep, so the answer never depends on Kafka.
 */
export class QueueRun {
  constructor(
    private readonly workflows: WorkflowsRepository,
    private readonly runs: WorkflowRunsRepository,
    private readonly inputs: InputCheck,
    private readonly queue: RunQueue,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  async queueRun(head: WorkflowSummary, order: RunOrder): Promise<RunRecord> {
    if (!head.enabled) {
      throw errors.conflict({
        detail: `workflow ${head.name} is disabled; enable it to run it`,
        error: 'workflow_disabled',
      });
    }
    const version = await this.workflows.findVersion(head.id, head.latestVersion);
    if (!version) throw errors.notFound(`no workflow ${head.id} in this workspace`);
    const { definition } = version;
    const issues = this.inputs.issues(`${head.id}:${version.version}`, definition.input?.schema, order.input);
    if (issues.length > 0) throw errors.validation(issues);
    const run: RunRecord = {
      id: order.runId ?? newRunId(),
      workspaceId: head.workspaceId,
      workflowId: head.id,
      workflowName: head.name,
      version: version.version,
      mode: order.mode,
      source: order.source,
      status: 'queued',
      input: order.input,
      steps: pendingSteps(definition.steps),
      cancelRequested: false,
      createdAt: this.clock.now(),
    };
    const repeated = await this.insertOrFind(run);
    if (repeated) return repeated;
    await this.queue
      .publish(run.id, run.workspaceId)
      .catch((error: unknown) => this.logger.warn({ err: error, runId: run.id }, 'run left for the workers sweep'));
    return run;
  }

  /** Writes the run; a repeat of a named call answers the run the first one wrote instead. */
  private async insertOrFind(run: RunRecord): Promise<RunRecord | undefined> {
    try {
      await this.runs.insert(run);
      return undefined;
    } catch (error) {
      if (!(error instanceof DuplicateKeyError)) throw error;
    }
    const first = await this.runs.get(run.id);
    if (!first || first.workspaceId !== run.workspaceId || first.workflowId !== run.workflowId) {
      throw errors.conflict({ detail: 'this call id belongs to another call' });
    }
    return first;
  }
}
