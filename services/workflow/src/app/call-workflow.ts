import { errors, isRunId, type Caller } from '@rde/platform';
import { parseCallRequest } from '../domain/call-request';
import { runIdOfCall, type RunRecord } from '../domain/run';
import type { WorkflowsRepository } from '../store/workflows';
import type { QueueRun } from './queue-run';

/**
 * `POST /workflows/call` (spec "Workflows"): the workflow by id or name, its input, mode and source;
 * 422 for a body or input that does not fit, 404 for a workflow the workspace does not have, 409
 * for a disabled one. The answer is the queued run; a repeat of a call its caller named
 * (`callerRunId`, e.g. from an Idempotency-Key) answers the run the first one queued.
 */
export class CallWorkflow {
  constructor(
    private readonly workflows: WorkflowsRepository,
    private readonly queue: QueueRun,
  ) {}

  async call(body: unknown, caller: Caller, defaultSource: string, callerRunId = ''): Promise<RunRecord> {
    if (callerRunId && !isRunId(callerRunId)) {
      throw errors.badRequest({ detail: 'run_id must be run_ followed by 24 hexadecimal digits' });
    }
    const parsed = parseCallRequest(body);
    if ('issues' in parsed) throw errors.validation(parsed.issues);
    const { workflow, input, mode, source } = parsed.request;
    const head =
      workflow.by === 'id'
        ? await this.workflows.find(caller.workspaceId, workflow.value)
        : await this.workflows.findByName(caller.workspaceId, workflow.value);
    if (!head) throw errors.notFound(`no workflow ${workflow.value} in this workspace`);
    return this.queue.queueRun(head, {
      input,
      mode,
      source: source ?? defaultSource,
      ...(callerRunId && { runId: runIdOfCall(caller.workspaceId, callerRunId) }),
    });
  }
}
