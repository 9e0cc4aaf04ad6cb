import { errors } from '@rde/platform';
import type { WorkflowRecord } from '../domain/workflow';
import type { WorkflowsRepository } from '../store/workflows';

/** A workflow at its latest version, or at the version asked (Versioning 3); 404 for one it never had. */
export class ReadWorkflow {
  constructor(private readonly workflows: WorkflowsRepository) {}

  async read(workspaceId: string, id: string, version = 0): Promise<WorkflowRecord> {
    const head = await this.workflows.find(workspaceId, id);
    if (!head) throw errors.notFound(`no workflow ${id} in this workspace`);
    const wanted = version || head.latestVersion;
    const stored = wanted <= head.latestVersion ? await this.workflows.findVersion(id, wanted) : null;
    if (!stored)
      throw errors.notFound(`workflow ${id} has no version ${wanted}; its versions are 1 to ${head.latestVersion}`);
    return { ...head, version: stored };
  }
}
