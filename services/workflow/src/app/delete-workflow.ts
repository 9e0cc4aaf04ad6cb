import { errors, type Clock } from '@rde/platform';
import type { WorkflowsRepository } from '../store/workflows';

/** Deletes a workflow: gone from every read, its name free again; its versions stay for the history of its runs. */
export class DeleteWorkflow {
  constructor(
    private readonly workflows: WorkflowsRepository,
    private readonly clock: Clock,
  ) {}

  async delete(workspaceId: string, id: string): Promise<void> {
    if (!(await this.workflows.delete(workspaceId, id, new Date(this.clock.now())))) {
      throw errors.notFound(`no workflow ${id} in this workspace`);
    }
  }
}
