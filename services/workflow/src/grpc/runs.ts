import { workspaceCallerOf, type Clock, type Handlers } from '@rde/platform';
import type { workflow } from '@rde/proto';
import type { CallWorkflow } from '../app/call-workflow';
import type { ReadRuns } from '../app/read-runs';
import type { Webhooks } from '../app/webhooks';
import type { RunRecord } from '../domain/run';
import { toSummaryProto } from './workflow-view';
import { runView } from './run-view';

export interface RunUseCases {
  readonly call: CallWorkflow;
  readonly read: ReadRuns;
  readonly webhooks: Webhooks;
  readonly clock: Clock;
}

type RunRpcs =
  'callWorkflow' | 'getWorkflowRun' | 'listWorkflowRuns' | 'cancelWorkflowRun' | 'fireWebhook' | 'rotateWebhook';

const json = (value: unknown) => Buffer.from(JSON.stringify(value));
const answer = (run: RunRecord) => ({ runJson: json(runView(run)) });
const parsed = (bytes: Uint8Array): unknown => {
  try {
    return JSON.parse(Buffer.from(bytes).toString('utf8'));
  } catch {
    return undefined;
  }
};

/** Runs and inbound webhooks, proto ⇄ domain (decisions 0074, 0075). */
export function runHandlers(cases: RunUseCases): Pick<Handlers<typeof workflow.WorkflowServiceService>, RunRpcs> {
  return {
    async callWorkflow(request, context) {
      const caller = workspaceCallerOf(context);
      return answer(await cases.call.call(parsed(request.bodyJson), caller, 'api', request.runId));
    },

    async getWorkflowRun(request, context) {
      const { workspaceId } = workspaceCallerOf(context);
      return answer(await cases.read.get(workspaceId, request.workflowId, request.runId));
    },

    async listWorkflowRuns(request, context) {
      const page = { offset: request.page?.offset ?? 0, limit: request.page?.limit || (request.workflowId ? 25 : 50) };
      const { workspaceId } = workspaceCallerOf(context);
      const { runs, total } = await cases.read.list(workspaceId, request.workflowId, page);
      return { runsJson: json(runs.map((run) => runView(run, false))), page: { ...page, total } };
    },

    async cancelWorkflowRun(request, context) {
      const { workspaceId } = workspaceCallerOf(context);
      return answer(await cases.read.cancel(workspaceId, request.workflowId, request.runId, cases.clock.now()));
    },

    async fireWebhook(request) {
      return answer(await cases.webhooks.fire(request.webhookId, parsed(request.bodyJson)));
    },

    async rotateWebhook(request, context) {
      const { workspaceId } = workspaceCallerOf(context);
      const rotated = await cases.webhooks.rotate(workspaceId, request.workflowId);
      return { workflow: toSummaryProto(rotated.workflow), webhookId: rotated.webhookId };
    },
  };
}
