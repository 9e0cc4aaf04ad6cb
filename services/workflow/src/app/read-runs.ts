import { errors } from '@rde/platform';
import type { RunRecord } from '../domain/run';
import type { Page } from '../domain/workflow';
import type { WorkflowRunsRepository } from '../store/runs';
import type { WorkflowsRepository } from '../store/workflows';

/**
 * Runs as their workspace reads them: one run of a workflow, a workflow's runs, the workspace's.
 * A deleted workflow's runs stay readable (decision 0072: runs keep their history).
 */
export class ReadRuns {
  constructor(
    private readonly runs: WorkflowRunsRepository,
    private readonly workflows: WorkflowsRepository,
  ) {}

  async get(workspaceId: string, workflowId: string, runId: string): Promise<RunRecord> {
    const run = await this.runs.find(workspaceId, workflowId, runId);
    if (!run) throw errors.notFound(`no run ${runId} of workflow ${workflowId} in this workspace`);
    return run;
  }

  /** Newest first; an id naming no workflow of the workspace (and no run of one deleted) is 404. */
  async list(workspaceId: string, workflowId: string, page: Page): Promise<{ runs: RunRecord[]; total: number }> {
    const listed = await this.runs.list(workspaceId, workflowId, page);
    if (workflowId && listed.total === 0 && !(await this.workflows.find(workspaceId, workflowId))) {
      throw errors.notFound(`no workflow ${workflowId} in this workspace`);
    }
    return listed;
  }

  /** Stops a run between steps: queued ends at once, running at its next step; an ended run is left as it is. */
  async cancel(workspaceId: string, workflowId: string, runId: string, now: number): Promise<RunRecord> {
    const run = await this.runs.cancel(workspaceId, workflowId, runId, now);
    if (!run) throw errors.notFound(`no run ${runId} of workflow ${workflowId} in this workspace`);
    return run;
  }
}
