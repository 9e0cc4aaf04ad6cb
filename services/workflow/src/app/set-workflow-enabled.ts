import { errors, type Clock } from '@rde/platform';
import type { WorkflowRecord } from '../domain/workflow';
import type { WorkflowsRepository } from '../store/workflows';
import type { ReadWorkflow } from './read-workflow';

/**
 * Enables or disables a workflow from any state (spec "States and transitions"); doing it twice
 * changes nothing more. A disabled workflow keeps its versions; runs will refuse to start it.
 */
export class SetWorkflowEnabled {
  constructor(
    private readonly workflows: WorkflowsRepository,
    private readonly reader: ReadWorkflow,
    private readonly clock: Clock,
  ) {}

  async set(workspaceId: string, id: string, enabled: boolean): Promise<WorkflowRecord> {
    const head = await this.workflows.setEnabled(workspaceId, id, enabled, new Date(this.clock.now()));
    if (!head) throw errors.notFound(`no workflow ${id} in this workspace`);
    return this.reader.read(workspaceId, id);
  }
}
