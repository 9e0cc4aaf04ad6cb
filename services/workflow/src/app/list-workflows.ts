import type { Page, WorkflowSummary } from '../domain/workflow';
import type { WorkflowsRepository } from '../store/workflows';

/** The workspace's workflows, most recently changed first, a page at a time. */
export class ListWorkflows {
  constructor(private readonly workflows: WorkflowsRepository) {}

  list(workspaceId: string, page: Page): Promise<{ workflows: WorkflowSummary[]; total: number }> {
    return this.workflows.list(workspaceId, page);
  }
}
